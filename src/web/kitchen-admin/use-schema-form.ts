import { schemaResolver, useForm } from '@mantine/form';
import type { z } from 'zod';
import { useSaveFailure } from './save-failure.js';
import { t } from '../i18n.js';

/**
 * A form checked in the browser with the shared zod schema the server uses, whose submit calls `onSave` and
 * shows a failed save as the spec does (see useSaveFailure). `clearOnSave` empties it after a successful save.
 */
export function useSchemaForm<T extends Record<string, unknown>>(
  schema: z.ZodType<T>,
  initialValues: T,
  onSave: (values: T) => Promise<void>,
  options: { clearOnSave?: boolean } = {},
) {
  const resolve = schemaResolver(schema, { sync: true });
  // The schema's messages are English: each is shown in the page's language.
  const validate = (values: T) =>
    Object.fromEntries(
      Object.entries(resolve(values)).map(([field, error]) => [
        field,
        typeof error === 'string' ? t(error) : error,
      ]),
    );
  const form = useForm<T>({ initialValues, validate });
  const save = useSaveFailure(form);
  const submit = form.onSubmit(async (values) => {
    save.clear();
    try {
      await onSave(values);
      if (options.clearOnSave) form.reset();
    } catch (error) {
      save.failed(error);
    }
  }, save.invalid);
  return { form, failure: save.failure, submit };
}
