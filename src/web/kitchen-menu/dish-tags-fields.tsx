import { Checkbox, Group } from '@mantine/core';
import type { useForm } from '@mantine/form';
import { ALLERGENS, DIETARY_LABELS, DIETARY_TAGS } from '../../shared/dietary.js';
import type { MenuItemInput } from '../../shared/menu.js';

/** A dish's dietary tags and the allergens it contains (the 14 that EU food law requires a seller to declare). */
export function DishTagsFields({
  form,
}: {
  form: Pick<ReturnType<typeof useForm<MenuItemInput>>, 'getInputProps'>;
}) {
  return (
    <>
      <Checkbox.Group label="Dietary" description="Tick what this dish is" {...form.getInputProps('dietary')}>
        <Group gap="md" mt={6}>
          {DIETARY_TAGS.map((tag) => (
            <Checkbox key={tag} value={tag} label={DIETARY_LABELS[tag]} />
          ))}
        </Group>
      </Checkbox.Group>
      <Checkbox.Group
        label="Allergens"
        description="Tick every allergen this dish contains"
        {...form.getInputProps('allergens')}
      >
        <Group gap="md" mt={6}>
          {ALLERGENS.map((allergen) => (
            <Checkbox key={allergen} value={allergen} label={allergen} />
          ))}
        </Group>
      </Checkbox.Group>
    </>
  );
}
