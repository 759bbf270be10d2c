import { Alert, Radio, Stack, Text } from '@mantine/core';
import type { PaymentMethod } from '../../shared/payments.js';
import { useKitchenPayments } from './use-payments.js';
import { t } from '../i18n.js';

/** The payment method a kitchen leaves: the customer's choice where it takes both, else the one it takes. */
export function paymentFor(
  payments: { card: boolean; cash: boolean } | undefined,
  chosen: PaymentMethod,
): PaymentMethod | undefined {
  if (!payments) return undefined;
  if (payments.card && payments.cash) return chosen;
  if (payments.card) return 'card';
  if (payments.cash) return 'cash';
  return undefined;
}

/** 'Pay by card' or 'Cash on delivery' at checkout, as the kitchen takes them. */
export function PaymentChoice({
  kitchenUid,
  value,
  onChange,
  pickup = false,
}: {
  kitchenUid: string;
  value: PaymentMethod;
  onChange: (method: PaymentMethod) => void;
  /** A pickup order: cash is paid when it is collected. */
  pickup?: boolean;
}) {
  const payments = useKitchenPayments(kitchenUid);
  const cashWhen = pickup
    ? t('Pay the cook when you collect your order')
    : t('Pay the cook when your order arrives');
  if (!payments.data) return null;
  const { card, cash } = payments.data;
  if (card && cash)
    return (
      <Radio.Group
        label={t('Payment')}
        value={value}
        onChange={(v) => onChange(v === 'cash' ? 'cash' : 'card')}
      >
        <Stack gap="xs" mt={6}>
          <Radio value="card" label={t('Pay by card')} description={t('On a secure payment page, next')} />
          <Radio value="cash" label={t('Cash on delivery')} description={cashWhen} />
        </Stack>
      </Radio.Group>
    );
  if (card) return <Text size="sm">{t('Pay by card: on a secure payment page, next.')}</Text>;
  if (cash)
    return (
      <Text size="sm">
        {pickup
          ? t('Cash on delivery: pay the cook when you collect your order.')
          : t('Cash on delivery: pay the cook when your order arrives.')}
      </Text>
    );
  return (
    <Alert color="orange" title={t('This kitchen cannot take payments yet')}>
      {t('Its cook has not set up payouts. Please order from another kitchen for now.')}
    </Alert>
  );
}
