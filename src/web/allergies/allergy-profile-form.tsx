import { Button, Checkbox, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { allergenDescription } from '../../shared/allergen-descriptions.js';
import { ALLERGENS, allergenName, type Allergen } from '../../shared/allergen-set.js';
import { pageLocale, t } from '../i18n.js';
import { useAllergyProfile } from './use-allergy-profile.js';
import { useSaveAllergyProfile } from './save-allergy-profile.js';

/** 'Your allergies': pick allergens (each described), say whether 'may contain' matters, save. */
export function AllergyProfileForm({ onSaved }: { onSaved?: () => void }) {
  const { profile, signedIn } = useAllergyProfile();
  const save = useSaveAllergyProfile(signedIn);
  const [allergens, setAllergens] = useState<string[]>([...profile.allergens]);
  const [mayContainMatters, setMayContainMatters] = useState(profile.mayContainMatters);
  const known = profile.allergens.join();
  useEffect(() => {
    setAllergens([...profile.allergens]);
    setMayContainMatters(profile.mayContainMatters);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- when the saved profile arrives or changes
  }, [known, profile.mayContainMatters]);
  const locale = pageLocale();
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {signedIn
          ? t(
              'Kept with your account. Dishes holding them are marked on menus, and an order holding them asks you first.',
            )
          : t('Kept in this browser. Dishes holding them are marked on menus.')}
      </Text>
      <Checkbox.Group label={t('I am allergic to')} value={allergens} onChange={setAllergens}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="sm">
          {ALLERGENS.map((a: Allergen) => (
            <Checkbox
              key={a}
              value={a}
              label={allergenName(a, locale)}
              description={allergenDescription(a, locale)}
            />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      <Switch
        label={t("'May contain' matters to me")}
        description={t('Also mark dishes that may contain them (cross-contact in a home kitchen)')}
        checked={mayContainMatters}
        onChange={(event) => setMayContainMatters(event.currentTarget.checked)}
      />
      <Button
        style={{ alignSelf: 'flex-start' }}
        loading={save.isPending}
        onClick={() =>
          save.mutate(
            { allergens: allergens as Allergen[], mayContainMatters },
            {
              onSuccess: () => {
                notifications.show({ color: 'green', message: t('Your allergies are saved') });
                onSaved?.();
              },
              onError: (error) =>
                notifications.show({
                  color: 'red',
                  title: t('Your allergies were not saved'),
                  message: t(error.message),
                }),
            },
          )
        }
      >
        {t('Save my allergies')}
      </Button>
    </Stack>
  );
}
