import { Badge, Button, Group, Skeleton, Table, Text } from '@mantine/core';
import { allowedMoves, isEnded, MOVE_RULES, type OrderMove } from '../../shared/order-states.js';
import type { KitchenOrder } from '../../shared/orders.js';
import { itemCounts, timeOfDay } from '../orders/order-format.js';

const COLUMNS = ['Customer Address', 'Customer Email', 'Order Status', 'Order details', 'Actions'];

/** The state, the ready time or the reason: what the status text alone may not say. */
function stateNote(order: KitchenOrder): string {
  if (order.deleted && !isEnded(order.state)) return 'deleted';
  if (order.reason) return `${order.state}: ${order.reason}`;
  if (order.readyAt && !isEnded(order.state)) return `${order.state} · ready by ${timeOfDay(order.readyAt)}`;
  return order.state;
}

/**
 * The spec's orders table; orders that just arrived are highlighted and marked New. Active orders carry the
 * lifecycle moves allowed now, then the spec's Update and Delete; past ones only show how they ended.
 */
export function OrdersTable({
  orders,
  fresh,
  label,
  onMove,
  onUpdate,
  onDelete,
}: {
  orders: KitchenOrder[] | undefined;
  fresh: ReadonlySet<string>;
  label: string;
  /** Absent for the 'Past' list. */
  onMove?: (order: KitchenOrder, move: OrderMove) => void;
  onUpdate?: (order: KitchenOrder) => void;
  onDelete?: (order: KitchenOrder) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label={label} aria-busy={orders === undefined} verticalSpacing="sm">
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
                <Text c="dimmed">
                  {onMove ? 'No orders yet. New orders appear here as they arrive.' : 'No past orders yet.'}
                </Text>
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
                  <Table.Td>{itemCounts(order.items).join(', ')}</Table.Td>
                  <Table.Td>
                    {order.status !== stateNote(order) ? (
                      <Text size="xs" c="dimmed" mb={4}>
                        {stateNote(order)}
                      </Text>
                    ) : null}
                    <Group gap="xs">
                      {onMove &&
                        allowedMoves(order.state, 'kitchen').map((move) => (
                          <Button
                            key={move}
                            size="xs"
                            variant={move === 'cancel' || move === 'decline' ? 'default' : 'filled'}
                            onClick={() => onMove(order, move)}
                          >
                            {MOVE_RULES[move].label}
                          </Button>
                        ))}
                      {onUpdate && (
                        <Button size="xs" variant="light" onClick={() => onUpdate(order)}>
                          Update
                        </Button>
                      )}
                      {onDelete && (
                        <Button size="xs" variant="light" color="red" onClick={() => onDelete(order)}>
                          Delete
                        </Button>
                      )}
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
