import { Badge, Center, Divider, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Navigate } from 'react-router';
import { formatCents } from '../../shared/money.js';
import { paths } from '../../shared/paths.js';
import { useMyOrder } from './use-my-order.js';
import { LoadFailed } from '../lib/load-failed.js';

/** The customer's open order, its status updated live as the kitchen changes it; no order → home. */
export function OrderStatus() {
  const order = useMyOrder();
  if (order.isPending)
    return (
      <Center py="xl">
        <Loader aria-label="Loading your order" />
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
        </Stack>
        <Text size="sm" c="dimmed" mt="md">
          Delivering to {o.address}
        </Text>
      </Paper>
    </Stack>
  );
}
