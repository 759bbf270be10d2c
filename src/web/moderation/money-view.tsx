import { Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { formatMoney } from '../../shared/money.js';
import type { MoneyOverview } from '../../shared/payments.js';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatWhen = (iso: string) => when.format(new Date(iso));

const TOTALS: [keyof MoneyOverview['totals'], string][] = [
  ['capturedCents', 'Captured'],
  ['refundedCents', 'Refunded'],
  ['platformFeeCents', 'Platform fees kept'],
  ['kitchenTransferCents', 'Paid to kitchens'],
  ['heldCents', 'Held on cards now'],
];

/** What a difference is about, as the reconciliation names it: an order, a kitchen, or the platform's sums. */
function scopeText(scope: string): string {
  const [kind, id] = scope.split(':');
  if (kind === 'order') return `Order ${id}`;
  if (kind === 'kitchen') return `Kitchen ${id}`;
  return 'Platform';
}

/**
 * The operator's 'Money' tab: the ledger's card totals, what the daily reconciliation with the payment provider
 * flagged, and the latest refunds.
 */
export function MoneyView({ view }: { view: MoneyOverview }) {
  const money = (minor: number) => formatMoney(minor, view.currency);
  return (
    <Stack gap="xl">
      <section aria-labelledby="money-totals">
        <Title order={2} size="h3" id="money-totals" mb="sm">
          Card payments
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm" component="dl" m={0}>
          {TOTALS.map(([key, label]) => (
            <Paper key={key} withBorder radius="md" p="sm">
              <Text component="dt" size="sm" c="dimmed">
                {label}
              </Text>
              <Text component="dd" m={0} fw={700} size="lg">
                {money(view.totals[key])}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      </section>

      <section aria-labelledby="money-differences">
        <Title order={2} size="h3" id="money-differences" mb={4}>
          Differences with the provider
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {view.lastReconciledAt
            ? `Reconciled with the payment provider ${formatWhen(view.lastReconciledAt)}.`
            : 'Not reconciled with the payment provider yet: it runs once a day.'}
        </Text>
        {view.differences.length === 0 ? (
          <Text>No differences found</Text>
        ) : (
          <Stack
            component="ul"
            aria-label="Differences found"
            gap="xs"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
          >
            {view.differences.map((d) => (
              <Paper key={d.id} component="li" withBorder radius="md" p="sm">
                <Group justify="space-between" gap="xs" mb={4}>
                  <Code fz="xs" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
                    {scopeText(d.scope)}
                  </Code>
                  <Text size="xs" c="dimmed">
                    {formatWhen(d.at)}
                  </Text>
                </Group>
                <Text size="sm">{d.detail}</Text>
              </Paper>
            ))}
          </Stack>
        )}
      </section>

      <section aria-labelledby="money-refunds">
        <Title order={2} size="h3" id="money-refunds" mb="sm">
          Latest refunds
        </Title>
        {view.refunds.length === 0 ? (
          <Text c="dimmed">No refunds yet</Text>
        ) : (
          <Table aria-label="Latest refunds" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Kitchen and order</Table.Th>
                <Table.Th>Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.refunds.map((r) => (
                <Table.Tr key={`${r.orderId}-${r.at}`}>
                  <Table.Td>{formatWhen(r.at)}</Table.Td>
                  <Table.Td>
                    {r.kitchenName}
                    <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {r.orderId}
                    </Text>
                  </Table.Td>
                  <Table.Td fw={600}>{money(r.amountCents)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
    </Stack>
  );
}
