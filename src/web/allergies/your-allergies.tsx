import { Paper, Title } from '@mantine/core';
import { t } from '../i18n.js';
import { AllergyProfileForm } from './allergy-profile-form.js';

/** 'Your allergies' on the customer's account page: kept with the account, exported and deleted with it. */
export function YourAllergies() {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="your-allergies-heading">
      <Title order={2} size="h3" id="your-allergies-heading" mb="md">
        {t('Your allergies')}
      </Title>
      <AllergyProfileForm />
    </Paper>
  );
}
