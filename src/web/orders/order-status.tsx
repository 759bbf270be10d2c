import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Divider,
  Group,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { disputeText, paymentText } from '../../shared/payments.js';
import { creditedText, refundedText } from '../../shared/refunds.js';
import { creditLineText } from '../../shared/credit.js';
import { codeLineText } from '../../shared/code-input.js';
import { Link, Navigate } from '../router/router.js';
import { formatCents } from '../../shared/money.js';
import { groupLines, inProgress, type CustomerOrder } from '../../shared/orders.js';
import { slotLabel } from '../../shared/slots.js';
import { paths } from '../../shared/paths.js';
import { LoadFailed } from '../lib/load-failed.js';
import { CancelOrderButton } from './cancel-order-button.js';
import { OrderAgainButton } from './order-again-button.js';
import { timeOfDay } from './order-format.js';
import { OrderTimeline } from './order-timeline.js';
import { OrderConversation } from '../order-messages/order-conversation.js';
import { useMyOrder } from './use-my-order.js';
import { RateOrder } from '../reviews/rate-order.js';
import { ReportProblem } from './report-problem.js';
import { TipCook } from '../tips/tip-cook.js';
import { Spinner } from '../lib/spinner.js';
import { PushButton } from '../notifications/push-button.js';
import { t } from '../i18n.js';

/** A receipt is there once the money was taken (a card captured, cash collected). */
const hasReceipt = (o: CustomerOrder) =>
  ['captured', 'refunding', 'refunded', 'cash-paid'].includes(o.payment.state);

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Where to collect a pickup order: told once the kitchen accepted it. */
function PickupPlaceText({ order }: { order: CustomerOrder }) {
  if (!order.pickup)
    return inProgress(order) ? (
      <Text>{t("Pickup: the kitchen's address is shown here once it accepts your order.")}</Text>
    ) : null;
  return (
    <Paper withBorder radius="md" p="md" maw={560} component="section" aria-label={t('Where to pick up')}>
      <Text fw={600}>{t('Pick up at')}</Text>
      <Text style={{ whiteSpace: 'pre-line' }}>{order.pickup.address}</Text>
      {order.pickup.instructions ? (
        <Text size="sm" mt="xs" style={{ whiteSpace: 'pre-line' }}>
          {order.pickup.instructions}
        </Text>
      ) : null}
    </Paper>
  );
}

/** What the customer is told once an order has ended (or the kitchen took it off its list). */
function endedMessage(o: CustomerOrder): string {
  if (o.state === 'delivered') return t('Your order was delivered. Enjoy your meal!');
  if (o.state === 'declined') return t('The kitchen declined this order.');
  if (o.state === 'cancelled') return t('This order was cancelled.');
  return t('The kitchen has closed this order.');
}

/**
 * The customer's order in progress (or else their latest), updated live as the kitchen moves it: the spec's
 * texts and status, the expected time, the timeline, 'Cancel order' while it can be, 'Order again' once it
 * ended. A customer who never ordered is sent home, as the spec says.
 */
export function OrderStatus() {
  const order = useMyOrder();
  if (order.isPending)
    return (
      <Center py="xl">
        <Spinner label={t('Loading your order')} />
      </Center>
    );
  if (order.isError)
    return (
      <LoadFailed
        title={t('Could not load your order')}
        error={order.error}
        retry={() => void order.refetch()}
      />
    );
  if (!order.data) return <Navigate to={paths.home.href()} replace />;
  const o = order.data;
  return (
    <Stack gap="lg">
      <Title order={1}>{t('Order Status from {kitchen}', { kitchen: o.kitchenName })}</Title>
      <Text size="lg">{t('Thank you for ordering from our kitchen.')}</Text>
      <Group gap="sm" role="status" aria-live="polite">
        <Text fw={600}>{t('Current status:')}</Text>
        <Badge size="xl" variant="light" tt="none" data-testid="order-status">
          {t(o.status)}
        </Badge>
      </Group>
      {o.slot ? (
        <Text size="lg" fw={600}>
          {o.fulfilment === 'pickup'
            ? t('Pickup for {slot}', { slot: slotLabel(o.slot, browserTimeZone(), new Date()) })
            : t('Delivery for {slot}', { slot: slotLabel(o.slot, browserTimeZone(), new Date()) })}
        </Text>
      ) : inProgress(o) && o.readyAt ? (
        <Text size="lg">{t('Expected around {time}', { time: timeOfDay(o.readyAt) })}</Text>
      ) : null}
      {o.fulfilment === 'pickup' ? <PickupPlaceText order={o} /> : null}
      {o.state === 'awaiting payment' ? (
        <Alert
          color="orange"
          title={t('Your order awaits its payment')}
          maw={560}
          styles={{ title: { color: '#8a3b00' } }}
        >
          <Stack gap="xs">
            <Text>{t('The kitchen sees your order once it is paid. Nothing has been charged yet.')}</Text>
            {o.payment.checkoutUrl ? (
              <Group>
                <Button component="a" href={o.payment.checkoutUrl}>
                  {t('Pay now')}
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Alert>
      ) : null}
      {inProgress(o) ? null : (
        <Alert
          color={o.state === 'delivered' ? 'green' : 'orange'}
          title={t('This order has ended')}
          maw={560}
          // The light variant's title colour is too pale on its background (axe: colour contrast).
          styles={{
            title: { color: o.state === 'delivered' ? '#1f6b32' : '#8a3b00' },
          }}
        >
          <Stack gap="xs">
            <Text>{endedMessage(o)}</Text>
            {o.reason ? <Text>{t('Reason: {reason}', { reason: o.reason })}</Text> : null}
            <Group>
              <OrderAgainButton orderId={o.id} kitchenGone={o.kitchenUid === null} />
            </Group>
          </Stack>
        </Alert>
      )}
      <RateOrder order={o} />
      <ReportProblem order={o} />
      <TipCook order={o} />
      <CancelOrderButton order={o} />
      {inProgress(o) ? (
        <PushButton as="customer" intro={t('Get told when your order moves, even with this page closed')} />
      ) : null}
      <OrderTimeline events={o.events} />
      <OrderConversation orderId={o.id} role="customer" />
      <Paper withBorder radius="md" p="lg" maw={560}>
        <Title order={2} size="h4" mb="sm">
          {t('Your order')}
        </Title>
        <Stack
          component="ul"
          gap={6}
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('Items of your order')}
        >
          {groupLines(o.items).map((line, i) => (
            <Group component="li" key={i} justify="space-between">
              <Text>
                {line.quantity > 1
                  ? t('{item} × {quantity}', { item: line.item, quantity: line.quantity })
                  : line.item}
              </Text>
              <Text>{formatCents(line.priceCents * line.quantity)}</Text>
            </Group>
          ))}
        </Stack>
        <Divider my="sm" />
        <Stack gap={4}>
          {o.fulfilment === 'delivery' ? (
            <Group justify="space-between">
              <Text c="dimmed">{t('Delivery fee')}</Text>
              <Text c="dimmed">{formatCents(o.deliveryFeeCents)}</Text>
            </Group>
          ) : null}
          <Group justify="space-between">
            <Text c="dimmed">{t('Fees and Estimated Tax')}</Text>
            <Text c="dimmed">{formatCents(o.feesAndTaxCents)}</Text>
          </Group>
          {o.tipCents > 0 ? (
            <Group justify="space-between">
              <Text c="dimmed">{t('Tip for the cook')}</Text>
              <Text c="dimmed">{formatCents(o.tipCents)}</Text>
            </Group>
          ) : null}
          {o.discount ? (
            <Text size="sm" data-testid="order-code">
              {codeLineText(o.discount.code, formatCents(o.discount.cents))}
            </Text>
          ) : null}
          <Group justify="space-between">
            <Text fw={700}>{t('Total')}</Text>
            <Text fw={700}>{formatCents(o.totalCents)}</Text>
          </Group>
          <Text size="sm" data-testid="order-payment">
            {t(paymentText(o.payment, 'customer', o.fulfilment))}
          </Text>
          {hasReceipt(o) ? (
            <Anchor href={`/api/orders/${encodeURIComponent(o.id)}/receipt`} target="_blank" size="sm">
              {t('Receipt')}
            </Anchor>
          ) : null}
          {o.creditCents > 0 ? <Text size="sm">{creditLineText(formatCents(o.creditCents))}</Text> : null}
          {o.payment.refunds
            .filter((refund) => refund.state === 'refunded')
            .map((refund) => (
              <Text key={refund.id} size="sm">
                {[
                  refund.amountCents > refund.creditCents
                    ? refundedText(formatCents(refund.amountCents - refund.creditCents))
                    : '',
                  refund.creditCents > 0 ? creditedText(formatCents(refund.creditCents)) : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            ))}
          {o.payment.dispute ? (
            <Text size="sm">
              {disputeText(
                o.payment.dispute,
                'customer',
                formatCents(o.payment.dispute.amountCents),
                browserTimeZone(),
              )}
            </Text>
          ) : null}
        </Stack>
        {o.fulfilment === 'delivery' ? (
          <Text size="sm" c="dimmed" mt="md">
            {t('Delivering to {address}', { address: o.address })}
          </Text>
        ) : null}
        {o.note ? (
          <Text size="sm" mt="xs" style={{ whiteSpace: 'pre-line' }}>
            {t('Your note: {note}', { note: o.note })}
          </Text>
        ) : null}
      </Paper>
      <Anchor component={Link} to={paths.customerOrders.href()}>
        {t('Your orders')}
      </Anchor>
    </Stack>
  );
}
