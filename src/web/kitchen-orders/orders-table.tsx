import { Badge, Box, Button, Card, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { formatCents } from '../../shared/money.js';
import { paymentText } from '../../shared/payments.js';
import { useMinuteTick } from '../availability/use-availability.js';
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

interface OrderHandlers {
  /** Absent for the 'Past' list. */
  onMove?: ((order: KitchenOrder, move: OrderMove) => void) | undefined;
  onUpdate?: ((order: KitchenOrder) => void) | undefined;
  onDelete?: ((order: KitchenOrder) => void) | undefined;
}

/** What the status text may not say, then the moves allowed now and the spec's Update and Delete. */
function OrderActions({
  order,
  onMove,
  onUpdate,
  onDelete,
  size = 'xs',
}: OrderHandlers & { order: KitchenOrder; size?: 'xs' | 'md' }) {
  return (
    <>
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
              size={size}
              variant={move === 'cancel' || move === 'decline' ? 'default' : 'filled'}
              onClick={() => onMove(order, move)}
            >
              {MOVE_RULES[move].label}
            </Button>
          ))}
        {onUpdate && (
          <Button size={size} variant="light" onClick={() => onUpdate(order)}>
            Update
          </Button>
        )}
        {onDelete && (
          <Button size={size} variant="light" color="red" onClick={() => onDelete(order)}>
            Delete
          </Button>
        )}
      </Group>
    </>
  );
}

/** How long ago an order came in: 'just now', '12 min ago', '2 h ago'. */
function age(createdAt: string, now: number): string {
  const minutes = Math.floor((now - new Date(createdAt).getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? `${hours} h ago` : `${Math.floor(hours / 24)} d ago`;
}

/**
 * On a phone: one card per order, with everything the table's row has (customer, address, dishes with counts,
 * total, state, age) and the actions as full-size buttons in reach of a thumb.
 */
function OrderCards({ orders, fresh, label, ...handlers }: OrdersViewProps) {
  const now = useMinuteTick(true);
  if (orders === undefined) return <Skeleton h={120} aria-label={`Loading ${label}`} />;
  if (orders.length === 0)
    return (
      <Text c="dimmed">
        {handlers.onMove ? 'No orders yet. New orders appear here as they arrive.' : 'No past orders yet.'}
      </Text>
    );
  return (
    <Stack component="ul" aria-label={label} gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {orders.map((order) => (
        <Card
          key={order.id}
          component="li"
          withBorder
          radius="md"
          padding="sm"
          bg={fresh.has(order.id) ? 'var(--mantine-color-brand-0)' : undefined}
          data-testid="order-card"
        >
          <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
            <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
              {order.customerEmail}
            </Text>
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {age(order.createdAt, now)}
            </Text>
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {order.customerAddress}
          </Text>
          <Text size="sm" mt={4}>
            {itemCounts(order.items).join(', ')} · <b>{formatCents(order.totalCents)}</b>
          </Text>
          <Text size="sm" c="dimmed">
            {paymentText(order.payment, 'kitchen')}
          </Text>
          <Group gap="xs" my={6}>
            <Text fw={600}>{order.status}</Text>
            {fresh.has(order.id) ? <Badge size="sm">New</Badge> : null}
          </Group>
          <OrderActions order={order} {...handlers} size="md" />
        </Card>
      ))}
    </Stack>
  );
}

interface OrdersViewProps extends OrderHandlers {
  orders: KitchenOrder[] | undefined;
  fresh: ReadonlySet<string>;
  label: string;
}

/** A kitchen's orders: the spec's table on wide screens, one card per order on a phone. */
export function OrdersView(props: OrdersViewProps) {
  return (
    <>
      <Box visibleFrom="sm">
        <OrdersTable {...props} />
      </Box>
      <Box hiddenFrom="sm">
        <OrderCards {...props} />
      </Box>
    </>
  );
}

/**
 * The spec's orders table; orders that just arrived are highlighted and marked New. Active orders carry the
 * lifecycle moves allowed now, then the spec's Update and Delete; past ones only show how they ended.
 */
function OrdersTable({ orders, fresh, label, onMove, onUpdate, onDelete }: OrdersViewProps) {
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
                  <Table.Td>
                    <span>{itemCounts(order.items).join(', ')}</span>
                    <Text size="sm" c="dimmed">
                      {paymentText(order.payment, 'kitchen')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <OrderActions order={order} onMove={onMove} onUpdate={onUpdate} onDelete={onDelete} />
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
