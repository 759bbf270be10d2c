import { Alert, List } from '@mantine/core';
import { useEffect } from 'react';
import { cartStore } from './cart-store.js';
import type { CartLine } from './cart-storage.js';
import { useAvailability } from '../availability/use-availability.js';
import { useKitchen } from '../kitchens/use-kitchen.js';
import { usePublicMenu } from '../menu/use-public-menu.js';
import type { Kitchen } from '../../shared/kitchens.js';
import { formatOpening } from '../../shared/opening-hours-rules.js';
import { t } from '../i18n.js';

/**
 * What would stop this cart's order, said before 'Submit order' and kept current while the customer looks: the
 * kitchen suspended, closed or paused, a dish sold out or with fewer portions left than the cart holds. (The server decides
 * again when the order is sent.)
 */
export function CartAvailability({
  kitchenUid,
  lines,
  forLater = false,
}: {
  kitchenUid: string;
  lines: readonly CartLine[];
  /** A pre-order: the kitchen may be closed now, and today's portions are not its day's. */
  forLater?: boolean;
}) {
  const kitchen = useKitchen(kitchenUid);
  // A suspended kitchen's menu is not served: nothing in this cart can be ordered until it is back.
  const menu = usePublicMenu(kitchenUid, !!kitchen.data && !kitchen.data.suspended);
  // The cart shows (and is charged) today's prices, not those of when a dish was added.
  useEffect(() => {
    if (menu.data) cartStore.refresh(kitchenUid, menu.data);
  }, [kitchenUid, menu.data]);
  if (!kitchen.data) return null;
  return <Problems kitchen={kitchen.data} menu={menu.data ?? []} lines={lines} forLater={forLater} />;
}

function Problems({
  kitchen,
  menu,
  lines,
  forLater,
}: {
  kitchen: Kitchen;
  menu: readonly { id: string; item: string; soldOut: boolean; portionsLeft: number | null }[];
  lines: readonly CartLine[];
  forLater: boolean;
}) {
  const state = useAvailability(kitchen);
  const problems: string[] = [];
  if (kitchen.suspended) problems.push(t('{kitchen} is unavailable right now.', { kitchen: kitchen.name }));
  else if (state.paused)
    problems.push(t('{kitchen} is not taking orders right now.', { kitchen: kitchen.name }));
  else if (!state.open && !forLater)
    problems.push(
      state.opensAt
        ? t('{kitchen} is closed now. It opens {when}.', {
            kitchen: kitchen.name,
            when: formatOpening(new Date(state.opensAt), kitchen.timeZone),
          })
        : t('{kitchen} is closed.', { kitchen: kitchen.name }),
    );
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line.id, (counts.get(line.id) ?? 0) + 1);
  for (const [id, count] of counts) {
    const dish = menu.find((d) => d.id === id);
    if (!dish) continue;
    if (dish.soldOut || (dish.portionsLeft === 0 && !forLater))
      problems.push(t('{dish} is sold out.', { dish: dish.item }));
    else if (!forLater && dish.portionsLeft !== null && dish.portionsLeft < count)
      problems.push(
        t('Only {left} {dish} left (your cart has {count}).', {
          left: dish.portionsLeft,
          dish: dish.item,
          count,
        }),
      );
  }
  if (problems.length === 0) return null;
  return (
    <Alert color="orange" title={t('Before you order')} role="status" data-testid="cart-availability">
      <List size="sm">
        {problems.map((problem) => (
          <List.Item key={problem}>{problem}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
