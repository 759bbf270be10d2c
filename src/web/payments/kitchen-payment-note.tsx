import { Text } from '@mantine/core';
import { useKitchenPayments } from './use-payments.js';
import { t } from '../i18n.js';

/** On a kitchen's menu page: how it can be paid, when that is not simply by card. */
export function KitchenPaymentNote({ kitchenUid }: { kitchenUid: string }) {
  // As the ordering line: what the server-rendered page says holds for the minute the page may be old.
  const payments = useKitchenPayments(kitchenUid, 60_000);
  if (!payments.data) return null;
  const { card, cash } = payments.data;
  if (card && cash) return <Text size="sm">{t('Pay by card or cash on delivery')}</Text>;
  if (card) return null;
  if (cash) return <Text size="sm">{t('Cash on delivery only')}</Text>;
  return (
    <Text size="sm" c="orange.9">
      {t('This kitchen cannot take payments yet')}
    </Text>
  );
}
