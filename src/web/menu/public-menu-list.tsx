import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { AllergyFilter } from '../allergies/allergy-filter.js';
import { AllergyMarks, conflictTexts } from '../allergies/allergy-marks.js';
import { useAllergyProfile } from '../allergies/use-allergy-profile.js';
import { Placeholder } from '../lib/placeholder.js';
import type { Kitchen } from '../../shared/kitchens.js';
import { useEffect } from 'react';
import { useCart } from '../cart/cart-context.js';
import { cartStore } from '../cart/cart-store.js';
import { PublicMenuItem } from './public-menu-item.js';
import { usePublicMenu } from './use-public-menu.js';
import { useSteadyWhilePressed } from '../live/steady-while-pressed.js';
import { LoadFailed } from '../lib/load-failed.js';
import { FIRST_ROW } from '../images/picture.js';
import { t } from '../i18n.js';

/** The live list of a kitchen's dishes on /KitchenMenu/{id}. */
export function PublicMenuList({ kitchen }: { kitchen: Pick<Kitchen, 'uid' | 'name'> }) {
  // A dish added live does not move the '+' under a finger.
  const menu = useSteadyWhilePressed(usePublicMenu(kitchen.uid));
  const cart = useCart();
  const allergies = useAllergyProfile();
  // The cart's lines of these dishes show today's names and prices.
  useEffect(() => {
    if (menu.data) cartStore.refresh(kitchen.uid, menu.data);
  }, [kitchen.uid, menu.data]);
  if (menu.isPending)
    return (
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} aria-busy="true" aria-label={t('Loading the menu')}>
        {[0, 1, 2].map((i) => (
          <Card key={i} withBorder radius="md" padding="md">
            <Placeholder h={160} mb="sm" />
            <Placeholder h={20} w="60%" />
          </Card>
        ))}
      </SimpleGrid>
    );
  if (menu.isError)
    return (
      <LoadFailed title={t('Could not load the menu')} error={menu.error} retry={() => void menu.refetch()} />
    );
  if (menu.data.length === 0)
    return <Text c="dimmed">{t('This kitchen has not put anything on its menu yet. Come back soon.')}</Text>;
  // Hiding leaves out what conflicts and, with allergies to avoid, what is not declared (it may hold anything).
  const avoiding = allergies.hide && allergies.profile.allergens.length > 0;
  const shown = avoiding
    ? menu.data.filter(
        (item) => item.allergensDeclared && conflictTexts(item, allergies.profile).length === 0,
      )
    : menu.data;
  const hidden = menu.data.length - shown.length;
  return (
    <Stack gap="md">
      <AllergyFilter hidden={hidden} />
      <SimpleGrid
        cols={{ base: 1, sm: 2, md: 3 }}
        spacing="lg"
        component="ul"
        aria-label={t('Menu of {kitchen}', { kitchen: kitchen.name })}
        style={{ listStyle: 'none', padding: 0 }}
      >
        {shown.map((item, index) => (
          <PublicMenuItem
            key={item.id}
            item={item}
            firstRow={index < FIRST_ROW}
            onAdd={() => cart.add({ uid: kitchen.uid, name: kitchen.name }, item)}
            marks={<AllergyMarks item={item} profile={allergies.profile} />}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
