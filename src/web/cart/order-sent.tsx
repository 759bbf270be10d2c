import { Anchor, Button, Group, Modal, Paper, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { groupLines, type CustomerOrder } from '../../shared/orders.js';
import { paths } from '../../shared/paths.js';
import { CartLines } from './cart-lines.js';

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
        title: 'Your order is already with the kitchen',
        message: `It cannot be changed here. Please contact ${order.kitchenName}.`,
      });
  };
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} mb="sm">
        Status of your order
      </Title>
      <Text size="lg" fw={700} mb="sm" role="status">
        Your Order is sent
      </Text>
      <Anchor component={Link} to={paths.customerOrderStatus.href()} fw={600}>
        View Your order Status on this link
      </Anchor>
      <Title order={3} size="h4" mt="lg" mb="sm">
        Your order from {order.kitchenName}
      </Title>
      <CartLines
        label="Items of your order"
        lines={groupLines(order.items).map((line, i) => ({ key: String(i), ...line }))}
        onRemove={() => setAsking(true)}
      />
      <Modal opened={asking} onClose={() => answer(false)} title="Update your order?" centered>
        <Text mb="md">You want to update the order. Say yes or no</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => answer(false)}>
            No
          </Button>
          <Button onClick={() => answer(true)}>Yes</Button>
        </Group>
      </Modal>
    </Paper>
  );
}
