import { Badge, Button, Group, Skeleton, Table, Text } from '@mantine/core';
import type { KitchenOrder } from '../../shared/orders.js';

const COLUMNS = ['Customer Address', 'Customer Email', 'Order Status', 'Order details', 'Actions'];

/** The spec's orders table; orders that just arrived are highlighted and marked New. */
export function OrdersTable({
  orders,
  fresh,
  onUpdate,
  onDelete,
}: {
  orders: KitchenOrder[] | undefined;
  fresh: ReadonlySet<string>;
  onUpdate: (order: KitchenOrder) => void;
  onDelete: (order: KitchenOrder) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-labelledby="orders-heading" aria-busy={orders === undefined} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <Table.Th key={c}>{c}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders === undefined ? (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS.length}>
                <Skeleton h={20} />
              </Table.Td>
            </Table.Tr>
          ) : orders.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS.length}>
                <Text c="dimmed">No orders yet. New orders appear here as they arrive.</Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            orders.map((order) => {
              const isNew = fresh.has(order.id);
              return (
                <Table.Tr
                  key={order.id}
                  bg={isNew ? 'var(--mantine-color-brand-0)' : undefined}
                  data-new={isNew || undefined}
                >
                  <Table.Td>{order.customerAddress}</Table.Td>
                  <Table.Td>{order.customerEmail}</Table.Td>
                  <Table.Td>
                    {order.status}
                    {isNew ? (
                      <Badge ml="xs" size="sm">
                        New
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{order.items.map((i) => i.item).join(', ')}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" onClick={() => onUpdate(order)}>
                        Update
                      </Button>
                      <Button size="xs" variant="light" color="red" onClick={() => onDelete(order)}>
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
