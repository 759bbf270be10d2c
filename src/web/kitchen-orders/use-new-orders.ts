import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import type { KitchenOrder } from '../../shared/orders.js';

/**
 * Orders that arrived while the page was open (not those of the first load): each is announced with a
 * notification and stays marked until the cook acknowledges it (`seen`), e.g. by updating it.
 */
export function useNewOrders(orders: KitchenOrder[] | undefined) {
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
      notifications.show({
        title: 'New order',
        message: `${order.customerEmail}: ${order.items.map((i) => i.item).join(', ')}`,
      });
    }
    setFresh((previous) => new Set([...previous, ...arrived.map((o) => o.id)]));
  }, [orders]);

  const seen = (id: string) =>
    setFresh((previous) => {
      const next = new Set(previous);
      next.delete(id);
      return next;
    });
  return { fresh, seen };
}
