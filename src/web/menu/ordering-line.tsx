import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatCents } from '../../shared/money.js';
import { FULFILMENT_LABELS } from '../../shared/fulfilments.js';
import type { KitchenSlots, PublicOrdering } from '../../shared/ordering.js';
import { api } from '../lib/api-client.js';
import { slotsKey } from '../ordering/use-kitchen-slots.js';
import { t } from '../i18n.js';

/**
 * How a kitchen takes orders, in a few words: 'Delivery · Pickup · Orders up to 2 days ahead · Minimum order
 * $15.00'. Orders for later are said only when it takes them; 'only' when it takes nothing for now.
 */
export function orderingSummary(ordering: PublicOrdering): string {
  const parts: string[] = [];
  if (ordering.offersDelivery) parts.push(t(FULFILMENT_LABELS.delivery));
  if (ordering.offersPickup) parts.push(t(FULFILMENT_LABELS.pickup));
  if (ordering.slotMinutes !== null) {
    const days = ordering.daysAhead;
    if (ordering.takesAsap)
      parts.push(
        days === 0
          ? t('Orders for later today')
          : t('{days, plural, one {Orders up to # day ahead} other {Orders up to # days ahead}}', { days }),
      );
    else
      parts.push(
        days === 0
          ? t('Orders for later today only')
          : t('{days, plural, one {Orders up to # day ahead only} other {Orders up to # days ahead only}}', {
              days,
            }),
      );
  }
  if (ordering.minimumOrderCents > 0)
    parts.push(t('Minimum order {amount}', { amount: formatCents(ordering.minimumOrderCents) }));
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
