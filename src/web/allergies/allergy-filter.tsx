import { Button, Group, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { allergenName } from '../../shared/allergen-set.js';
import { loadLaterStyles } from '../load-later-styles.js';
import { ToggleSwitch } from '../lib/toggle-switch.js';
import { pageLocale, t } from '../i18n.js';
import { useAllergyProfile } from './use-allergy-profile.js';

// The dialog (a Modal with its focus trap and scroll lock, a checkbox per allergen with its description, toasts)
// loads on the first press: the landing page and every menu show this button, and the first view's script has a
// budget (scripts/check-budget.mjs), which the dialog in it passed by 27 KiB.
const AllergyDialog = lazy(async () => {
  const styles = loadLaterStyles();
  const { AllergyDialog } = await import('./allergy-dialog.js');
  await styles;
  return { default: AllergyDialog };
});

/**
 * Above a menu and among the search's filters: 'Your allergies' (to set them), and 'Hide dishes with my allergens'
 * (`hidden`: how many dishes of the menu it hides; none given on the search, whose server leaves them out).
 */
export function AllergyFilter({ hidden = 0 }: { hidden?: number }) {
  const { profile, hide, setHide } = useAllergyProfile();
  const [open, setOpen] = useState(false);
  // Once opened, the dialog stays mounted (closed), so that it closes with its transition.
  const [wanted, setWanted] = useState(false);
  const locale = pageLocale();
  return (
    <Group gap="md" align="center">
      <Button
        variant="default"
        size="xs"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        {t('Your allergies')}
      </Button>
      {profile.allergens.length > 0 && (
        <Text size="sm">
          {t('Marking: {allergens}', {
            allergens: profile.allergens.map((a) => allergenName(a, locale)).join(t(', ')),
          })}
        </Text>
      )}
      <ToggleSwitch label={t('Hide dishes with my allergens')} checked={hide} onChange={setHide} />
      {hide && hidden > 0 && (
        <Text size="sm" c="dimmed" role="status">
          {t('{count, plural, one {# dish hidden} other {# dishes hidden}}', { count: hidden })}
        </Text>
      )}
      {wanted && (
        <Suspense fallback={null}>
          <AllergyDialog opened={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </Group>
  );
}
