import { Button, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import type { KitchenOrder } from '../../shared/orders.js';
import { OrderConversation } from './order-conversation.js';
import { t } from '../i18n.js';

/**
 * An order's 'Messages' button on the kitchen's orders page: it opens the conversation with the order's customer
 * in a dialog (followed live only while it is open).
 */
export function KitchenOrderMessages({ order, size = 'xs' }: { order: KitchenOrder; size?: 'xs' | 'md' }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button size={size} variant="light" onClick={() => setOpened(true)}>
        {t('Messages')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('Messages')} centered size="lg">
        <Text size="sm" c="dimmed" mb="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('With {email} · {address}', { email: order.customerEmail, address: order.customerAddress })}
        </Text>
        {opened ? <OrderConversation orderId={order.id} role="kitchen" heading={false} /> : null}
      </Modal>
    </>
  );
}
