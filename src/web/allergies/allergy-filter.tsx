import { Button, Group, Modal, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { allergenName } from '../../shared/allergen-set.js';
import { pageLocale, t } from '../i18n.js';
import { AllergyProfileForm } from './allergy-profile-form.js';
import { useAllergyProfile } from './use-allergy-profile.js';

/**
 * Above a menu and among the search's filters: 'Your allergies' (to set them), and 'Hide dishes with my allergens'
 * (`hidden`: how many dishes of the menu it hides; none given on the search, whose server leaves them out).
 */
export function AllergyFilter({ hidden = 0 }: { hidden?: number }) {
  const { profile, hide, setHide } = useAllergyProfile();
  const [open, setOpen] = useState(false);
  const locale = pageLocale();
  return (
    <Group gap="md" align="center">
      <Button variant="default" size="xs" onClick={() => setOpen(true)}>
        {t('Your allergies')}
      </Button>
      {profile.allergens.length > 0 && (
        <Text size="sm">
          {t('Marking: {allergens}', {
            allergens: profile.allergens.map((a) => allergenName(a, locale)).join(t(', ')),
          })}
        </Text>
      )}
      <Switch
        label={t('Hide dishes with my allergens')}
        checked={hide}
        onChange={(event) => setHide(event.currentTarget.checked)}
      />
      {hide && hidden > 0 && (
        <Text size="sm" c="dimmed" role="status">
          {t('{count, plural, one {# dish hidden} other {# dishes hidden}}', { count: hidden })}
        </Text>
      )}
      <Modal opened={open} onClose={() => setOpen(false)} title={t('Your allergies')} size="lg">
        <AllergyProfileForm onSaved={() => setOpen(false)} />
      </Modal>
    </Group>
  );
}
