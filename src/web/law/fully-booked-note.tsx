import { Text } from '@mantine/core';
import { t } from '../i18n.js';
import { useKitchenBooking } from './use-kitchen-booking.js';

/**
 * On a kitchen's menu page: its permit number where its place's rules ask for it, and 'Fully booked today' once its
 * caps leave no meal for today.
 */
export function FullyBookedNote({ kitchenUid }: { kitchenUid: string }) {
  const booking = useKitchenBooking(kitchenUid);
  if (!booking.data) return null;
  const { permitNumber, fullyBookedToday } = booking.data;
  return (
    <>
      {permitNumber && <Text size="sm">{t('Permit number: {number}', { number: permitNumber })}</Text>}
      {fullyBookedToday && (
        <Text fw={600} c="red.9" role="status">
          {t('Fully booked today')}
        </Text>
      )}
    </>
  );
}
