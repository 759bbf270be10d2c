import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import type { KitchenOrder } from '../../shared/orders.js';
import { itemCounts, listOf } from '../orders/order-format.js';
import { notifySystem, playChime } from './order-alerts.js';
import { t } from '../i18n.js';

/**
 * Orders that arrived while the page was open (not those of the first load): each is announced with a
 * notification (a chime too when `sound` is on, and a system notification when the cook allowed them) and stays
 * marked until the cook acknowledges it (`seen`), e.g. by updating it.
 */
export function useNewOrders(orders: KitchenOrder[] | undefined, { sound }: { sound: boolean }) {
  const known = useRef<Set<string> | undefined>(undefined);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    if (!orders) return;
    if (!known.current) {
      known.current = new Set(orders.map((o) => o.id));
      return;
    }
    const seenBefore = known.current;
    const arrived = orders.filter((o) => !seenBefore.has(o.id));
    if (arrived.length === 0) return;
    for (const order of arrived) {
      seenBefore.add(order.id);
      const message = t('{customer}: {items}', {
        customer: order.customerEmail,
        items: listOf(itemCounts(order.items)),
      });
      // Longer than the default 4 s: a cook at the stove looks up now and then.
      notifications.show({ title: t('New order'), message, autoClose: 10_000 });
      notifySystem(t('New order'), message);
    }
    if (sound) playChime();
    setFresh((previous) => new Set([...previous, ...arrived.map((o) => o.id)]));
  }, [orders, sound]);

  const seen = (id: string) =>
    setFresh((previous) => {
      const next = new Set(previous);
      next.delete(id);
      return next;
    });
  return { fresh, seen };
}
