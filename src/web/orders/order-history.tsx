import { Anchor, Badge, Card, Center, Group, Stack, Text, Title } from '@mantine/core';
import { formatCents } from '../../shared/money.js';
import { isEnded } from '../../shared/order-states.js';
import { inProgress } from '../../shared/orders.js';
import { LoadFailed } from '../lib/load-failed.js';
import { OrderAgainButton } from './order-again-button.js';
import { dateAndTime, itemCounts, listOf } from './order-format.js';
import { useMyOrders } from './use-my-order.js';
import { RateOrder } from '../reviews/rate-order.js';
import { ReportProblem } from './report-problem.js';
import { Spinner } from '../lib/spinner.js';
import { t } from '../i18n.js';

/** 'Your orders': every order of the customer, newest first, live, each with 'Order again'. */
export function OrderHistory() {
  const orders = useMyOrders();
  return (
    <Stack gap="lg">
      <Title order={1}>{t('Your orders')}</Title>
      {orders.isPending ? (
        <Center py="xl">
          <Spinner label={t('Loading your orders')} />
        </Center>
      ) : orders.isError ? (
        <LoadFailed
          title={t('Could not load your orders')}
          error={orders.error}
          retry={() => void orders.refetch()}
        />
      ) : orders.data.length === 0 ? (
        <Text c="dimmed">{t('You have not ordered yet.')}</Text>
      ) : (
        <Stack
          component="ul"
          gap="md"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('Your orders')}
        >
          {orders.data.map((order) => (
            <Card component="li" key={order.id} withBorder radius="md" padding="md">
              <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
                <Stack gap={4}>
                  <Text fw={700}>{order.kitchenName}</Text>
                  <Text size="sm" c="dimmed">
                    {dateAndTime(order.createdAt)}
                  </Text>
                  <Text>{listOf(itemCounts(order.items))}</Text>
                  <Text fw={600}>{formatCents(order.totalCents)}</Text>
                  {['captured', 'refunding', 'refunded', 'cash-paid'].includes(order.payment.state) ? (
                    <Anchor
                      href={`/api/orders/${encodeURIComponent(order.id)}/receipt`}
                      target="_blank"
                      size="sm"
                      aria-label={t('Receipt of your order from {kitchen}', { kitchen: order.kitchenName })}
                    >
                      {t('Receipt')}
                    </Anchor>
                  ) : null}
                  <RateOrder order={order} compact />
                  <ReportProblem order={order} compact />
                  {order.tips
                    .filter((tip) => tip.state === 'paid')
                    .map((tip) => (
                      <Text key={tip.id} size="sm" fw={600}>
                        {t('You tipped {amount}. Thank you!', { amount: formatCents(tip.amountCents) })}
                      </Text>
                    ))}
                </Stack>
                <Stack gap="xs" align="flex-end">
                  <Badge variant="light" tt="none" color={inProgress(order) ? 'brand' : 'gray'}>
                    {order.deleted && !isEnded(order.state) ? t('closed by the kitchen') : t(order.state)}
                  </Badge>
                  <OrderAgainButton
                    orderId={order.id}
                    kitchenGone={order.kitchenUid === null}
                    size="sm"
                    variant="light"
                  />
                </Stack>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
