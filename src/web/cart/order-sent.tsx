import { Anchor, Button, Group, Modal, Paper, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';
import { Link } from '../router/router.js';
import { groupLines, type CustomerOrder } from '../../shared/orders.js';
import { paths } from '../../shared/paths.js';
import { CartLines } from './cart-lines.js';
import { t } from '../i18n.js';

// 'Every week' under a pre-order, where its kitchen offers weekly plans: its own code, loaded once an order is sent.
const EveryWeekOffer = lazy(async () => ({
  default: (await import('../plans/every-week-offer.js')).EveryWeekOffer,
}));

/**
 * Shown once the order is placed: the confirmation and the link to its status. The order's lines keep their
 * delete icons, but a placed order is not edited here: removing asks, and changes nothing.
 */
export function OrderSent({ order }: { order: CustomerOrder }) {
  const [asking, setAsking] = useState(false);
  const answer = (yes: boolean) => {
    setAsking(false);
    if (yes)
      notifications.show({
        title: t('Your order is already with the kitchen'),
        message: t('It cannot be changed here. Please contact {kitchen}.', { kitchen: order.kitchenName }),
      });
  };
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} mb="sm">
        {t('Status of your order')}
      </Title>
      <Text size="lg" fw={700} mb="sm" role="status">
        {t('Your Order is sent')}
      </Text>
      <Anchor component={Link} to={paths.customerOrderStatus.href()} fw={600}>
        {t('View Your order Status on this link')}
      </Anchor>
      <Title order={3} size="h4" mt="lg" mb="sm">
        {t('Your order from {kitchen}', { kitchen: order.kitchenName })}
      </Title>
      <CartLines
        label={t('Items of your order')}
        lines={groupLines(order.items).map((line, i) => ({ key: String(i), ...line }))}
        onRemove={() => setAsking(true)}
      />
      {order.slot && (
        <Suspense fallback={null}>
          <EveryWeekOffer order={order} />
        </Suspense>
      )}
      <Modal opened={asking} onClose={() => answer(false)} title={t('Update your order?')} centered>
        <Text mb="md">{t('You want to update the order. Say yes or no')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => answer(false)}>
            {t('No')}
          </Button>
          <Button onClick={() => answer(true)}>{t('Yes')}</Button>
        </Group>
      </Modal>
    </Paper>
  );
}
