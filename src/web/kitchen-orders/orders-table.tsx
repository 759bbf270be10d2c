import { Anchor, Badge, Box, Button, Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { CustomerAllergies, OrderDocuments } from './order-allergies.js';
import { Fragment, type ReactNode } from 'react';
import { formatCents } from '../../shared/money.js';
import { FULFILMENT_LABELS } from '../../shared/ordering.js';
import { slotLabel } from '../../shared/slots.js';
import { disputeText, paymentText } from '../../shared/payments.js';
import { useMinuteTick } from '../availability/use-availability.js';
import { allowedMoves, isEnded, MOVE_RULES, type OrderMove } from '../../shared/order-states.js';
import type { KitchenOrder } from '../../shared/orders.js';
import { itemCounts, listOf, timeOfDay } from '../orders/order-format.js';
import { KitchenOrderMessages } from '../order-messages/kitchen-order-messages.js';
import { RefundButton } from './refund-button.js';
import { ProblemSummary } from '../orders/report-problem.js';
import { CloseProblemButton } from './close-problem-button.js';
import { hasPreOrders, slotGroups, type OrderGroup } from './slot-groups.js';
import { msg, t, tx } from '../i18n.js';

const COLUMNS = [
  msg('Customer Address'),
  msg('Customer Email'),
  msg('Order Status'),
  msg('Order details'),
  msg('Actions'),
];

/** The state, the ready time or the reason: what the status text alone may not say. */
function stateNote(order: KitchenOrder): string {
  if (order.deleted && !isEnded(order.state))
    return (
      // translators: an order the kitchen deleted from its list
      t('deleted')
    );
  if (order.reason) return t('{state}: {reason}', { state: t(order.state), reason: order.reason });
  if (order.readyAt && !isEnded(order.state))
    return t('{state} · ready by {time}', { state: t(order.state), time: timeOfDay(order.readyAt) });
  return t(order.state);
}

/** Where the order goes: its address for a delivery, 'Pickup' for an order the customer collects. */
const destination = (order: KitchenOrder) =>
  order.fulfilment === 'pickup' ? t(FULFILMENT_LABELS.pickup) : order.customerAddress;

/**
 * 'Delivery' or 'Pickup', with the order's slot when it is not already its group's heading; then the customer's
 * note, when there is one.
 */
function FulfilmentAndNote({ order, slotShown, timeZone, now }: { order: KitchenOrder } & Shown) {
  return (
    <>
      <Text size="sm" fw={500}>
        {t(FULFILMENT_LABELS[order.fulfilment])}
        {order.slot && !slotShown ? ` · ${slotLabel(order.slot, timeZone, now)}` : null}
      </Text>
      {order.note ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
          {t('Note: {note}', { note: order.note })}
        </Text>
      ) : null}
      <CustomerAllergies order={order} />
      <OrderDocuments order={order} />
    </>
  );
}

/** How an order's slot is shown: under its group's heading, or on the order itself (in the kitchen's time). */
interface Shown {
  slotShown: boolean;
  timeZone: string;
  now: Date;
}

/** A slot's heading and what to cook for it ('Biryani × 7'); 'As soon as possible' has no list. */
function GroupHeading({ group }: { group: OrderGroup }) {
  return (
    <Stack gap={2}>
      <Title order={2} size="h4">
        {t(group.heading)}
      </Title>
      <Anchor
        size="sm"
        href={`/api/kitchen/prep-sheet?slot=${encodeURIComponent(group.slot ? group.slot.start : 'asap')}`}
        target="_blank"
      >
        {t('Prep sheet (PDF) for {slot}', { slot: t(group.heading) })}
      </Anchor>
      {group.slot && group.prep.length > 0 ? (
        <Group gap="xs" wrap="wrap">
          <Text size="sm" c="dimmed">
            {t('To cook:')}
          </Text>
          <Group
            component="ul"
            aria-label={t('To cook for {slot}', { slot: t(group.heading) })}
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
          >
            {group.prep.map((line) => (
              <Badge component="li" key={line} variant="light" tt="none" size="lg">
                {line}
              </Badge>
            ))}
          </Group>
        </Group>
      ) : null}
    </Stack>
  );
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
      {t(order.status) !== stateNote(order) ? (
        <Text size="xs" c="dimmed" mb={4}>
          {stateNote(order)}
        </Text>
      ) : null}
      {order.payment.dispute ? (
        <Text size="xs" fw={700} c={order.payment.dispute.outcome ? undefined : '#a61e4d'} mb={4} role="note">
          {disputeText(
            order.payment.dispute,
            'kitchen',
            formatCents(order.payment.dispute.amountCents),
            Intl.DateTimeFormat().resolvedOptions().timeZone,
          )}
        </Text>
      ) : null}
      {order.problem && !order.problem.resolvedAt ? (
        <Box role="group" aria-label={t('Problem reported')} mb={6} p={6} bg="var(--mantine-color-orange-0)">
          <Text size="xs" fw={700} c="#8a3b00">
            {t('Problem reported')}
          </Text>
          <ProblemSummary report={order.problem} />
        </Box>
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
              {t(MOVE_RULES[move].label)}
            </Button>
          ))}
        {onUpdate && (
          <Button size={size} variant="light" onClick={() => onUpdate(order)}>
            {t('Update')}
          </Button>
        )}
        {onDelete && (
          <Button size={size} variant="light" color="red" onClick={() => onDelete(order)}>
            {t('Delete')}
          </Button>
        )}
        <RefundButton order={order} size={size} />
        <CloseProblemButton order={order} size={size} />
        <KitchenOrderMessages order={order} size={size} />
      </Group>
    </>
  );
}

/** How long ago an order came in: 'just now', '12 min ago', '2 h ago'. */
function age(createdAt: string, now: number): string {
  const minutes = Math.floor((now - new Date(createdAt).getTime()) / 60_000);
  if (minutes < 1) return t('just now');
  if (minutes < 60) return t('{minutes, plural, other {# min ago}}', { minutes });
  const hours = Math.floor(minutes / 60);
  return hours < 24
    ? t('{hours, plural, other {# h ago}}', { hours })
    : t('{days, plural, other {# d ago}}', { days: Math.floor(hours / 24) });
}

/**
 * On a phone: one card per order, with everything the table's row has (customer, address or pickup, dishes with
 * counts, total, note, state, age) and the actions as full-size buttons in reach of a thumb.
 */
function OrderCard({
  order,
  fresh,
  ageText,
  shown,
  ...handlers
}: OrderHandlers & { order: KitchenOrder; fresh: boolean; ageText: string; shown: Shown }) {
  return (
    <Card
      component="li"
      withBorder
      radius="md"
      padding="sm"
      bg={fresh ? 'var(--mantine-color-brand-0)' : undefined}
      data-testid="order-card"
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
          {order.customerEmail}
        </Text>
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {ageText}
        </Text>
      </Group>
      {order.fulfilment === 'delivery' ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {order.customerAddress}
        </Text>
      ) : null}
      <Text size="sm" mt={4}>
        {tx('{items} · <b>{total}</b>', {
          items: listOf(itemCounts(order.items)),
          total: formatCents(order.totalCents),
          b: (chunks) => <b>{chunks as ReactNode}</b>,
        })}
      </Text>
      <FulfilmentAndNote order={order} {...shown} />
      <Text size="sm" c="dimmed">
        {t(paymentText(order.payment, 'kitchen', order.fulfilment))}
      </Text>
      <Group gap="xs" my={6}>
        <Text fw={600}>{t(order.status)}</Text>
        {fresh ? (
          <Badge size="sm">
            {
              // translators: a badge on an order that just arrived
              t('New')
            }
          </Badge>
        ) : null}
      </Group>
      <OrderActions order={order} {...handlers} size="md" />
    </Card>
  );
}

function OrderCards({ orders, fresh, label, timeZone, bySlot, ...handlers }: OrdersViewProps) {
  const now = useMinuteTick(true);
  if (orders === undefined) return <Skeleton h={120} aria-label={t('Loading {list}', { list: label })} />;
  if (orders.length === 0)
    return (
      <Text c="dimmed">
        {handlers.onMove
          ? t('No orders yet. New orders appear here as they arrive.')
          : t('No past orders yet.')}
      </Text>
    );
  const grouped = bySlot && hasPreOrders(orders);
  const shown: Shown = { slotShown: grouped, timeZone, now: new Date(now) };
  const list = (items: readonly KitchenOrder[], name: string) => (
    <Stack component="ul" aria-label={name} gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {items.map((order) => (
        <OrderCard
          key={order.id}
          order={order}
          fresh={fresh.has(order.id)}
          ageText={age(order.createdAt, now)}
          shown={shown}
          {...handlers}
        />
      ))}
    </Stack>
  );
  if (!grouped) return list(orders, label);
  return (
    <Stack gap="lg">
      {slotGroups(orders, timeZone, shown.now).map((group) => (
        <Stack key={group.key} gap="xs" component="section">
          <GroupHeading group={group} />
          {list(group.orders, t('{list}: {slot}', { list: label, slot: t(group.heading) }))}
        </Stack>
      ))}
    </Stack>
  );
}

interface OrdersViewProps extends OrderHandlers {
  orders: KitchenOrder[] | undefined;
  fresh: ReadonlySet<string>;
  label: string;
  /** The kitchen's time zone: slots are shown in it. */
  timeZone: string;
  /** Show the orders by when they are for ('As soon as possible', then each slot), when any is for a slot. */
  bySlot: boolean;
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

/** One order's row of the spec's table. */
function OrderRow({
  order,
  isNew,
  shown,
  ...handlers
}: OrderHandlers & { order: KitchenOrder; isNew: boolean; shown: Shown }) {
  return (
    <Table.Tr bg={isNew ? 'var(--mantine-color-brand-0)' : undefined} data-new={isNew || undefined}>
      <Table.Td>{destination(order)}</Table.Td>
      <Table.Td>{order.customerEmail}</Table.Td>
      <Table.Td>
        {t(order.status)}
        {isNew ? (
          <Badge ms="xs" size="sm">
            {t('New')}
          </Badge>
        ) : null}
      </Table.Td>
      <Table.Td>
        <span>{listOf(itemCounts(order.items))}</span>
        <FulfilmentAndNote order={order} {...shown} />
        <Text size="sm" c="dimmed">
          {t(paymentText(order.payment, 'kitchen', order.fulfilment))}
        </Text>
      </Table.Td>
      <Table.Td>
        <OrderActions order={order} {...handlers} />
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * The spec's orders table; orders that just arrived are highlighted and marked New. Active orders carry the
 * lifecycle moves allowed now, then the spec's Update and Delete; past ones only show how they ended. With orders
 * for later among them, a heading row opens each group: 'As soon as possible' first, then each slot with what to
 * cook for it.
 */
function OrdersTable({ orders, fresh, label, timeZone, bySlot, ...handlers }: OrdersViewProps) {
  const now = useMinuteTick(true);
  const grouped = bySlot && hasPreOrders(orders);
  const shown: Shown = { slotShown: grouped, timeZone, now: new Date(now) };
  const rows = (items: readonly KitchenOrder[]) =>
    items.map((order) => (
      <OrderRow key={order.id} order={order} isNew={fresh.has(order.id)} shown={shown} {...handlers} />
    ));
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label={label} aria-busy={orders === undefined} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <Table.Th key={c}>{t(c)}</Table.Th>
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
                  {handlers.onMove
                    ? t('No orders yet. New orders appear here as they arrive.')
                    : t('No past orders yet.')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : grouped ? (
            slotGroups(orders, timeZone, shown.now).map((group) => (
              <Fragment key={group.key}>
                <Table.Tr bg="var(--mantine-color-gray-0)">
                  <Table.Td colSpan={COLUMNS.length}>
                    <GroupHeading group={group} />
                  </Table.Td>
                </Table.Tr>
                {rows(group.orders)}
              </Fragment>
            ))
          ) : (
            rows(orders)
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
