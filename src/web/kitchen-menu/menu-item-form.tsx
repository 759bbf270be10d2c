import { Button, Stack, TextInput } from '@mantine/core';
import { MenuItemInput } from '../../shared/menu.js';
import { SaveFailureAlert } from '../kitchen-admin/save-failure.js';
import { useSchemaForm } from '../kitchen-admin/use-schema-form.js';
import { DishTagsFields } from './dish-tags-fields.js';

export const emptyMenuItem: MenuItemInput = {
  item: '',
  imageLink: '',
  price: '',
  wait: '',
  dietary: [],
  allergens: [],
};

/**
 * A menu item's fields, checked with the server's schema. After a successful save the form clears when
 * `clearOnSave` is set (adding several dishes in a row).
 */
export function MenuItemForm({
  initialValues,
  submitLabel,
  onSave,
  clearOnSave = false,
}: {
  initialValues: MenuItemInput;
  submitLabel: string;
  onSave: (values: MenuItemInput) => Promise<void>;
  clearOnSave?: boolean;
}) {
  const { form, failure, submit } = useSchemaForm(MenuItemInput, initialValues, onSave, { clearOnSave });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={560}>
        <TextInput label="Item" withAsterisk autoComplete="off" {...form.getInputProps('item')} />
        <TextInput
          label="Image of your Item Link"
          description="A link to a picture, starting with https://"
          placeholder="https://"
          inputMode="url"
          withAsterisk
          {...form.getInputProps('imageLink')}
        />
        <TextInput
          label="Price"
          description="In dollars, for example 12.50"
          leftSection="$"
          inputMode="decimal"
          withAsterisk
          {...form.getInputProps('price')}
        />
        <TextInput
          label="Wait Time"
          placeholder="20 min"
          withAsterisk
          autoComplete="off"
          {...form.getInputProps('wait')}
        />
        <DishTagsFields form={form} />
        <SaveFailureAlert failure={failure} />
        <Button type="submit" loading={form.submitting} style={{ alignSelf: 'flex-start' }}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
