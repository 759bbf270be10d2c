import { Badge, Card, Group, Stack, Table, Text } from '@mantine/core';
import type { Earnings, EarningsLine, EarningsTotal } from '../../shared/payments.js';
import { itemCounts, timeOfDay } from '../orders/order-format.js';
import { msg, t, translator } from '../i18n.js';

const COLUMNS = [
  msg('Date'),
  msg('Items'),
  msg('Delivery fee'),
  msg('Platform fee'),
  msg('Refunds'),
  msg('Tips'),
  msg('Net'),
];

/** A day of the kitchen's calendar for people: 'Wed, Mar 11, 2026'. */
export const dayName = (day: string) =>
  translator()
    .dateFormat({ weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(`${day}T12:00:00Z`));

/** A month of the kitchen's calendar for people: 'March 2026'. */
export const monthName = (month: string) =>
  translator()
    .dateFormat({ month: 'long', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(`${month}-15T12:00:00Z`));

const plural = (count: number) => t('{count, plural, one {# order} other {# orders}}', { count });

/** 'Code FIRST10: −$5.00, paid by the platform' (or by you): who paid an order's promotion code (ADR 30). */
function DiscountNote({ line, money }: { line: EarningsLine; money: (minor: number) => string }) {
  if (!line.discount) return null;
  const values = { code: line.discount.code, amount: money(line.discount.cents) };
  return (
    <Text size="xs" c="dimmed" data-testid="earnings-code">
      {line.discount.paidBy === 'platform'
        ? t('Code {code}: −{amount}, paid by the platform', values)
        : t('Code {code}: −{amount}, paid by you', values)}
    </Text>
  );
}

function LineRow({ line, earnings }: { line: EarningsLine; earnings: Earnings }) {
  const money = (minor: number) => translator().money(minor, earnings.currency);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {timeOfDay(line.at, earnings.timeZone)}
        {line.method === 'cash' ? (
          <Badge ms={6} size="xs" variant="light" color="gray">
            {t('cash')}
          </Badge>
        ) : null}
      </Table.Td>
      <Table.Td>
        {itemCounts(line.items.map((item) => ({ item, priceCents: 0 }))).join(', ')}
        <DiscountNote line={line} money={money} />
      </Table.Td>
      <Table.Td>{money(line.deliveryFeeCents)}</Table.Td>
      <Table.Td>{money(line.platformFeeCents)}</Table.Td>
      <Table.Td>{line.refundedCents ? money(line.refundedCents) : '—'}</Table.Td>
      <Table.Td>{line.tipCents ? money(line.tipCents) : '—'}</Table.Td>
      <Table.Td fw={600}>{money(line.netCents)}</Table.Td>
    </Table.Tr>
  );
}

/** The paid orders, newest first, under a row per day (the kitchen's calendar) holding that day's totals. */
export function PaidOrdersTable({ earnings }: { earnings: Earnings }) {
  const money = (minor: number) => translator().money(minor, earnings.currency);
  const linesOf = byDay(earnings.lines);
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table aria-label={t('Paid orders')} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <Table.Th key={c}>{t(c)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        {earnings.days.map((day) => (
          <Table.Tbody key={day.period}>
            <Table.Tr bg="var(--mantine-color-default-hover)">
              <Table.Th scope="rowgroup" colSpan={3}>
                {dayName(day.period)}{' '}
                <Text span size="sm" c="dimmed" fw={400}>
                  · {plural(day.orders)}
                </Text>
              </Table.Th>
              <Table.Td fw={600}>{money(day.platformFeeCents)}</Table.Td>
              <Table.Td fw={600}>{day.refundedCents ? money(day.refundedCents) : '—'}</Table.Td>
              <Table.Td fw={600}>{day.tipCents ? money(day.tipCents) : '—'}</Table.Td>
              <Table.Td fw={700}>{money(day.netCents)}</Table.Td>
            </Table.Tr>
            {(linesOf.get(day.period) ?? []).map((line) => (
              <LineRow key={line.orderId} line={line} earnings={earnings} />
            ))}
          </Table.Tbody>
        ))}
      </Table>
    </Table.ScrollContainer>
  );
}

/** The lines of each day, by day. */
function byDay(lines: readonly EarningsLine[]): Map<string, EarningsLine[]> {
  const days = new Map<string, EarningsLine[]>();
  for (const line of lines) days.set(line.day, [...(days.get(line.day) ?? []), line]);
  return days;
}

/**
 * On a phone: the same days and orders as the table, one card per order with what the cook keeps in reach of the
 * eye, and the fees under it.
 */
export function PaidOrdersList({ earnings }: { earnings: Earnings }) {
  const money = (minor: number) => translator().money(minor, earnings.currency);
  const linesOf = byDay(earnings.lines);
  return (
    <Stack component="ul" aria-label={t('Paid orders')} gap="lg" p={0} m={0} style={{ listStyle: 'none' }}>
      {earnings.days.map((day) => (
        <li key={day.period}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={700}>{dayName(day.period)}</Text>
            <Text fw={700}>{money(day.netCents)}</Text>
          </Group>
          <Text size="sm" c="dimmed" mb="xs">
            {day.refundedCents
              ? t(
                  '{count, plural, one {# order} other {# orders}} · platform fees {fees} · refunds {refunds}',
                  { count: day.orders, fees: money(day.platformFeeCents), refunds: money(day.refundedCents) },
                )
              : t('{count, plural, one {# order} other {# orders}} · platform fees {fees}', {
                  count: day.orders,
                  fees: money(day.platformFeeCents),
                })}
          </Text>
          <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
            {(linesOf.get(day.period) ?? []).map((line) => (
              <Card key={line.orderId} component="li" withBorder radius="md" padding="sm">
                <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                  <Text size="sm">
                    {timeOfDay(line.at, earnings.timeZone)}
                    {line.method === 'cash' ? ` · ${t('cash')}` : ''}
                  </Text>
                  <Text fw={700}>{money(line.netCents)}</Text>
                </Group>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {itemCounts(line.items.map((item) => ({ item, priceCents: 0 }))).join(', ')}
                </Text>
                <Text size="xs" c="dimmed">
                  {line.refundedCents
                    ? t('Delivery fee {delivery} · platform fee {platform} · refunded {refunded}', {
                        delivery: money(line.deliveryFeeCents),
                        platform: money(line.platformFeeCents),
                        refunded: money(line.refundedCents),
                      })
                    : t('Delivery fee {delivery} · platform fee {platform}', {
                        delivery: money(line.deliveryFeeCents),
                        platform: money(line.platformFeeCents),
                      })}
                </Text>
                <DiscountNote line={line} money={money} />
                {line.tipCents ? (
                  <Text size="xs" c="teal.9">
                    {t('Tip {tip}, yours whole', { tip: money(line.tipCents) })}
                  </Text>
                ) : null}
              </Card>
            ))}
          </Stack>
        </li>
      ))}
    </Stack>
  );
}

/** Each month's totals (the kitchen's calendar), newest first. */
export function MonthTotalsTable({ months, currency }: { months: EarningsTotal[]; currency: string }) {
  const money = (minor: number) => translator().money(minor, currency);
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table aria-label={t('Totals per month')} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Month')}</Table.Th>
            <Table.Th>{t('Orders')}</Table.Th>
            <Table.Th>{t('Refunds')}</Table.Th>
            <Table.Th>{t('Tips')}</Table.Th>
            <Table.Th>{t('Net')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {months.map((month) => (
            <Table.Tr key={month.period}>
              <Table.Th scope="row">{monthName(month.period)}</Table.Th>
              <Table.Td>{translator().number(month.orders)}</Table.Td>
              <Table.Td>{month.refundedCents ? money(month.refundedCents) : '—'}</Table.Td>
              <Table.Td>{month.tipCents ? money(month.tipCents) : '—'}</Table.Td>
              <Table.Td fw={700}>{money(month.netCents)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
