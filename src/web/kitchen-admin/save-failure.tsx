import { Alert, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { z } from 'zod';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../lib/api-client.js';

/** What went wrong with the last save: undefined when nothing did; `detail` when no field is to blame. */
export interface SaveFailure {
  detail?: string;
}

/** The part of a Mantine form this needs; `never` lets a form typed by its own field names fit. */
interface FieldErrorTarget {
  getValues(): object;
  setFieldError(path: never, error: ReactNode): void;
}

/**
 * Tracks a form's failed saves the way the spec shows them ('Please fill all fields') while also saying what is
 * wrong: a field the server names gets its message on that field; any other failure is spelled out and toasted.
 */
export function useSaveFailure(form: FieldErrorTarget) {
  const [failure, setFailure] = useState<SaveFailure | undefined>(undefined);
  return {
    failure,
    clear: () => setFailure(undefined),
    /** The browser's own check (the shared schema) refused the values; the fields already show why. */
    invalid: () => setFailure({}),
    /** The server refused or could not be reached. */
    failed: (error: unknown) => {
      const message = error instanceof Error ? error.message : 'The save failed';
      const field = error instanceof ApiError ? error.field : undefined;
      if (field && field in form.getValues()) {
        form.setFieldError(field as never, message);
        setFailure({});
        return;
      }
      setFailure({ detail: message });
      notifications.show({ color: 'red', title: 'Could not save', message });
    },
  };
}

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
  const form = useForm<T>({ initialValues, validate: schemaResolver(schema, { sync: true }) });
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

export function SaveFailureAlert({ failure }: { failure: SaveFailure | undefined }) {
  if (!failure) return null;
  return (
    <Alert color="red" role="alert" title="Please fill all fields">
      {failure.detail ? <Text size="sm">{failure.detail}</Text> : null}
    </Alert>
  );
}
