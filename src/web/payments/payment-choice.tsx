import { Alert, Radio, Stack, Text } from '@mantine/core';
import type { PaymentMethod } from '../../shared/payments.js';
import { useKitchenPayments } from './use-payments.js';

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
    ? 'Pay the cook when you collect your order'
    : 'Pay the cook when your order arrives';
  if (!payments.data) return null;
  const { card, cash } = payments.data;
  if (card && cash)
    return (
      <Radio.Group label="Payment" value={value} onChange={(v) => onChange(v === 'cash' ? 'cash' : 'card')}>
        <Stack gap="xs" mt={6}>
          <Radio value="card" label="Pay by card" description="On a secure payment page, next" />
          <Radio value="cash" label="Cash on delivery" description={cashWhen} />
        </Stack>
      </Radio.Group>
    );
  if (card) return <Text size="sm">Pay by card: on a secure payment page, next.</Text>;
  if (cash)
    return <Text size="sm">Cash on delivery: {cashWhen.charAt(0).toLowerCase() + cashWhen.slice(1)}.</Text>;
  return (
    <Alert color="orange" title="This kitchen cannot take payments yet">
      Its cook has not set up payouts. Please order from another kitchen for now.
    </Alert>
  );
}
