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
import { paymentText } from '../../shared/payments.js';
import { Link, Navigate } from 'react-router';
import { formatCents } from '../../shared/money.js';
import { inProgress, type CustomerOrder } from '../../shared/orders.js';
import { paths } from '../../shared/paths.js';
import { LoadFailed } from '../lib/load-failed.js';
import { CancelOrderButton } from './cancel-order-button.js';
import { OrderAgainButton } from './order-again-button.js';
import { timeOfDay } from './order-format.js';
import { OrderTimeline } from './order-timeline.js';
import { useMyOrder } from './use-my-order.js';
import { RateOrder } from '../reviews/rate-order.js';
import { Spinner } from '../lib/spinner.js';

/** What the customer is told once an order has ended (or the kitchen took it off its list). */
function endedMessage(o: CustomerOrder): string {
  if (o.state === 'delivered') return 'Your order was delivered. Enjoy your meal!';
  if (o.state === 'declined') return 'The kitchen declined this order.';
  if (o.state === 'cancelled') return 'This order was cancelled.';
  return 'The kitchen has closed this order.';
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
        <Spinner label="Loading your order" />
      </Center>
    );
  if (order.isError)
    return (
      <LoadFailed title="Could not load your order" error={order.error} retry={() => void order.refetch()} />
    );
  if (!order.data) return <Navigate to={paths.home.href()} replace />;
  const o = order.data;
  return (
    <Stack gap="lg">
      <Title order={1}>Order Status from {o.kitchenName}</Title>
      <Text size="lg">Thank you for ordering from our kitchen.</Text>
      <Group gap="sm" role="status" aria-live="polite">
        <Text fw={600}>Current status:</Text>
        <Badge size="xl" variant="light" tt="none" data-testid="order-status">
          {o.status}
        </Badge>
      </Group>
      {inProgress(o) && o.readyAt ? <Text size="lg">Expected around {timeOfDay(o.readyAt)}</Text> : null}
      {o.state === 'awaiting payment' ? (
        <Alert
          color="orange"
          title="Your order awaits its payment"
          maw={560}
          styles={{ title: { color: '#8a3b00' } }}
        >
          <Stack gap="xs">
            <Text>The kitchen sees your order once it is paid. Nothing has been charged yet.</Text>
            {o.payment.checkoutUrl ? (
              <Group>
                <Button component="a" href={o.payment.checkoutUrl}>
                  Pay now
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Alert>
      ) : null}
      {inProgress(o) ? null : (
        <Alert
          color={o.state === 'delivered' ? 'green' : 'orange'}
          title="This order has ended"
          maw={560}
          // The light variant's title colour is too pale on its background (axe: colour contrast).
          styles={{
            title: { color: o.state === 'delivered' ? '#1f6b32' : '#8a3b00' },
          }}
        >
          <Stack gap="xs">
            <Text>{endedMessage(o)}</Text>
            {o.reason ? <Text>Reason: {o.reason}</Text> : null}
            <Group>
              <OrderAgainButton orderId={o.id} kitchenGone={o.kitchenUid === null} />
            </Group>
          </Stack>
        </Alert>
      )}
      <RateOrder order={o} />
      <CancelOrderButton order={o} />
      <OrderTimeline events={o.events} />
      <Paper withBorder radius="md" p="lg" maw={560}>
        <Title order={2} size="h4" mb="sm">
          Your order
        </Title>
        <Stack
          component="ul"
          gap={6}
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label="Items of your order"
        >
          {o.items.map((line, i) => (
            <Group component="li" key={i} justify="space-between">
              <Text>{line.item}</Text>
              <Text>{formatCents(line.priceCents)}</Text>
            </Group>
          ))}
        </Stack>
        <Divider my="sm" />
        <Stack gap={4}>
          <Group justify="space-between">
            <Text c="dimmed">Delivery fee</Text>
            <Text c="dimmed">{formatCents(o.deliveryFeeCents)}</Text>
          </Group>
          <Group justify="space-between">
            <Text c="dimmed">Fees and Estimated Tax</Text>
            <Text c="dimmed">{formatCents(o.feesAndTaxCents)}</Text>
          </Group>
          <Group justify="space-between">
            <Text fw={700}>Total</Text>
            <Text fw={700}>{formatCents(o.totalCents)}</Text>
          </Group>
          <Text size="sm" data-testid="order-payment">
            {paymentText(o.payment, 'customer')}
          </Text>
        </Stack>
        <Text size="sm" c="dimmed" mt="md">
          Delivering to {o.address}
        </Text>
      </Paper>
      <Anchor component={Link} to={paths.customerOrders.href()}>
        Your orders
      </Anchor>
    </Stack>
  );
}
