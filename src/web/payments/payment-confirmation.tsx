import { Center, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { CustomerOrder } from '../../shared/orders.js';
import { OrderSent } from '../cart/order-sent.js';
import { useCart } from '../cart/cart-context.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { useMyOrder } from '../orders/use-my-order.js';
import { useCheckPayment } from './payout-actions.js';
import { t } from '../i18n.js';

/** Whether the customer's payment is through: the order has reached its kitchen. */
const authorised = (order: CustomerOrder) =>
  order.state !== 'awaiting payment' && order.payment.state !== 'unpaid';

/**
 * Back from the payment page having paid: 'Your Order is sent' once the provider says the payment is authorised
 * (its event, or the server asking it now), the cart emptied then and not before. A payment that ended unpaid
 * meanwhile goes back to the cart, as it was.
 */
export function PaymentConfirmation({ orderId, onUnpaid }: { orderId: string; onUnpaid: () => void }) {
  const cart = useCart();
  const check = useCheckPayment();
  const live = useMyOrder();
  useEffect(() => {
    check.mutate(orderId);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per return
  }, [orderId]);
  const order = live.data?.id === orderId ? live.data : check.data?.id === orderId ? check.data : undefined;
  const done = order !== undefined && authorised(order);
  const unpaid = order?.payment.state === 'unpaid';
  // Once: the cart's own change would run this again.
  const finished = useRef(false);
  useEffect(() => {
    if (finished.current) return;
    if (done) cart.clear();
    if (unpaid) onUnpaid();
    finished.current = done || unpaid;
  }, [done, unpaid, cart, onUnpaid]);
  if (done) return <OrderSent order={order} />;
  if (check.isError && !order)
    return (
      <LoadFailed
        title={t('Could not confirm your payment')}
        error={check.error}
        retry={() => check.mutate(orderId)}
      />
    );
  return (
    <Center py="xl">
      <Stack align="center" gap="xs">
        <Spinner label={t('Confirming your payment')} />
        <Text c="dimmed">{t('This takes a moment.')}</Text>
      </Stack>
    </Center>
  );
}
