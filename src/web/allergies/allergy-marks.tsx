import { Group, Stack, Text } from '@mantine/core';
import { allergenName, conflictsOf, type AllergyProfile } from '../../shared/allergen-set.js';
import type { MenuItem } from '../../shared/menu.js';
import { pageLocale, t } from '../i18n.js';

/** What of a dish conflicts with the profile: 'Contains sesame', 'May contain peanuts'. */
export function conflictTexts(item: MenuItem, profile: AllergyProfile): string[] {
  const locale = pageLocale();
  const found = conflictsOf({ contains: item.allergens, mayContain: item.mayContain }, profile);
  return [
    ...found.contains.map((a) => t('Contains {allergen}', { allergen: allergenName(a, locale) })),
    ...found.mayContain.map((a) => t('May contain {allergen}', { allergen: allergenName(a, locale) })),
  ];
}

/**
 * A dish's conflicts with the customer's allergies, each with a warning sign and in words (never colour alone);
 * nothing when there is none.
 */
export function AllergyMarks({ item, profile }: { item: MenuItem; profile: AllergyProfile }) {
  const texts = conflictTexts(item, profile);
  if (!texts.length) return null;
  return (
    <Stack gap={2} px="md" pb="md" role="note" aria-label={t('Your allergies')}>
      {texts.map((text) => (
        <Group key={text} gap={6} wrap="nowrap">
          <Text component="span" aria-hidden="true" fw={700} c="red.9">
            ⚠
          </Text>
          <Text component="span" fw={700} c="red.9" size="sm">
            {text}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
