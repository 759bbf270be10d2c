import { Checkbox, Group } from '@mantine/core';
import type { useForm } from '@mantine/form';
import { DIETARY_LABELS, DIETARY_TAGS } from '../../shared/dietary.js';
import type { MenuItemFormInput } from '../../shared/menu.js';
import { t } from '../i18n.js';

/** A dish's dietary tags (its allergens are asked one by one: allergen-questions.tsx). */
export function DishTagsFields({
  form,
}: {
  form: Pick<ReturnType<typeof useForm<MenuItemFormInput>>, 'getInputProps'>;
}) {
  return (
    <>
      <Checkbox.Group
        label={t('Dietary')}
        description={t('Tick what this dish is')}
        {...form.getInputProps('dietary')}
      >
        <Group gap="md" mt={6}>
          {DIETARY_TAGS.map((tag) => (
            <Checkbox key={tag} value={tag} label={t(DIETARY_LABELS[tag])} />
          ))}
        </Group>
      </Checkbox.Group>
    </>
  );
}
