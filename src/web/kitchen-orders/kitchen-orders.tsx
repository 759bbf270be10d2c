import { Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { Kitchen } from '../../shared/kitchens.js';
import type { KitchenOrder } from '../../shared/orders.js';
import { ConfirmModal } from '../kitchen-admin/confirm-modal.js';
import { OrderStatusModal } from './order-status-modal.js';
import { OrdersTable } from './orders-table.js';
import { LoadFailed } from '../lib/load-failed.js';
import { useDeleteOrder, useKitchenOrders } from './use-kitchen-orders.js';
import { useNewOrders } from './use-new-orders.js';

/** /KitchenOrders' content: the live orders table with its Update and Delete dialogs. */
export function KitchenOrders({ kitchen }: { kitchen: Kitchen }) {
  const orders = useKitchenOrders(kitchen.uid);
  const { fresh, seen } = useNewOrders(orders.data);
  const remove = useDeleteOrder();
  const [updating, setUpdating] = useState<KitchenOrder | undefined>();
  const [deleting, setDeleting] = useState<KitchenOrder | undefined>();

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', title: 'Order deleted', message: deleting.customerEmail });
      setDeleting(undefined);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not delete the order',
        message: (error as Error).message,
      });
    }
  };

  return (
    <section>
      <Title order={1} id="orders-heading" mb="md">
        Orders of your kitchen
      </Title>
      {orders.isError ? (
        <LoadFailed
          title="Could not load your orders"
          error={orders.error}
          retry={() => void orders.refetch()}
        />
      ) : (
        <OrdersTable
          orders={orders.data}
          fresh={fresh}
          onUpdate={(order) => {
            seen(order.id);
            setUpdating(order);
          }}
          onDelete={setDeleting}
        />
      )}
      <OrderStatusModal
        order={updating}
        onClose={() => setUpdating(undefined)}
        onUpdated={(order, status) => {
          notifications.show({
            color: 'green',
            title: 'Status updated',
            message: `${order.customerEmail}: ${status}`,
          });
          setUpdating(undefined);
        }}
      />
      <ConfirmModal
        opened={deleting !== undefined}
        title="Delete this order?"
        message={`The order from ${deleting?.customerEmail ?? 'this customer'} leaves this list. It is kept in your records, and the customer can order again.`}
        confirmLabel="Delete order"
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(undefined)}
      />
    </section>
  );
}
