import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatCents } from '../../shared/money.js';
import { FULFILMENT_LABELS } from '../../shared/fulfilments.js';
import type { KitchenSlots, PublicOrdering } from '../../shared/ordering.js';
import { api } from '../lib/api-client.js';
import { slotsKey } from '../ordering/use-kitchen-slots.js';

const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

/**
 * How a kitchen takes orders, in a few words: 'Delivery · Pickup · Orders up to 2 days ahead · Minimum order
 * $15.00'. Orders for later are said only when it takes them; 'only' when it takes nothing for now.
 */
export function orderingSummary(ordering: PublicOrdering): string {
  const parts: string[] = [];
  if (ordering.offersDelivery) parts.push(FULFILMENT_LABELS.delivery);
  if (ordering.offersPickup) parts.push(FULFILMENT_LABELS.pickup);
  if (ordering.slotMinutes !== null) {
    const only = ordering.takesAsap ? '' : ' only';
    parts.push(
      ordering.daysAhead === 0
        ? `Orders for later today${only}`
        : `Orders up to ${days(ordering.daysAhead)} ahead${only}`,
    );
  }
  if (ordering.minimumOrderCents > 0) parts.push(`Minimum order ${formatCents(ordering.minimumOrderCents)}`);
  return parts.join(' · ');
}

/**
 * Under a kitchen's header on its menu page: how it takes orders (from GET /api/kitchens/:uid/slots, shared with the
 * cart's 'When'). Nothing while it loads, nor should it fail: the cart says the same again.
 */
export function OrderingLine({ kitchenUid }: { kitchenUid: string }) {
  const slots = useQuery({
    queryKey: slotsKey(kitchenUid),
    queryFn: () => api.get<KitchenSlots>(`/api/kitchens/${encodeURIComponent(kitchenUid)}/slots`),
    staleTime: 60_000,
    retry: false,
  });
  if (!slots.data) return null;
  return (
    <Text size="sm" data-testid="kitchen-ordering">
      {orderingSummary(slots.data)}
    </Text>
  );
}
