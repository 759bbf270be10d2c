import { Text } from '@mantine/core';
import { t } from '../i18n.js';
import { useKitchenBooking } from './use-kitchen-rules.js';

/** On a kitchen's menu page: 'Fully booked today' once its place's caps leave no meal for today. */
export function FullyBookedNote({ kitchenUid }: { kitchenUid: string }) {
  const booking = useKitchenBooking(kitchenUid);
  if (!booking.data?.fullyBookedToday) return null;
  return (
    <Text fw={600} c="red.9" role="status">
      {t('Fully booked today')}
    </Text>
  );
}
