import { Alert, Button, Group, Text } from '@mantine/core';
import type { MenuItem } from '../../shared/menu.js';
import { t } from '../i18n.js';

/**
 * The dishes of the cook's menu that still need their allergen answers (customers see 'Allergens not declared'),
 * each with a button that opens its form.
 */
export function UndeclaredDishes({
  items,
  onAnswer,
}: {
  items: readonly MenuItem[] | undefined;
  onAnswer: (item: MenuItem) => void;
}) {
  const undeclared = items?.filter((item) => !item.allergensDeclared) ?? [];
  if (!undeclared.length) return null;
  return (
    <Alert
      color="orange"
      mb="md"
      title={t('These dishes need their allergen answers')}
      // The light orange's own title colour is too faint on it (axe: colour contrast): the text colour instead.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Text size="sm" mb="xs">
        {t("Customers see 'Allergens not declared' on them until you answer for every allergen.")}
      </Text>
      <Group
        component="ul"
        gap="xs"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label={t('Dishes needing allergen answers')}
      >
        {undeclared.map((item) => (
          <li key={item.id}>
            <Button size="xs" variant="default" onClick={() => onAnswer(item)}>
              {t('Answer for {dish}', { dish: item.item })}
            </Button>
          </li>
        ))}
      </Group>
    </Alert>
  );
}
