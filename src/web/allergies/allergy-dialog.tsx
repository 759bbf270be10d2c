import { Modal } from '@mantine/core';
import { t } from '../i18n.js';
import { AllergyProfileForm } from './allergy-profile-form.js';

/** 'Your allergies' as a dialog over a menu or the search (loaded on the first press: allergy-filter.tsx). */
export function AllergyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={t('Your allergies')} size="lg">
      <AllergyProfileForm onSaved={onClose} />
    </Modal>
  );
}
