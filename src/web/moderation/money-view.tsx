import { Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { formatMoney } from '../../shared/money.js';
import type { MoneyOverview } from '../../shared/payments.js';
import { msg, t, translator } from '../i18n.js';
import { MoneyDisputes } from './money-disputes.js';

const formatWhen = (iso: string) =>
  translator().dateFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const TOTALS: [keyof MoneyOverview['totals'], string][] = [
  ['capturedCents', msg('Captured')],
  ['refundedCents', msg('Refunded')],
  ['platformFeeCents', msg('Platform fees kept')],
  ['kitchenTransferCents', msg('Paid to kitchens')],
  ['heldCents', msg('Held on cards now')],
  ['creditIssuedCents', msg('Store credit given')],
  ['creditSpentCents', msg('Store credit spent')],
  ['creditHeldCents', msg('Store credit held by customers')],
];

/** The step a pending payment state waits on, as the operator reads it. */
const STEP_NAMES: Partial<Record<MoneyOverview['failingSteps'][number]['state'], string>> = {
  capturing: msg('Capture'),
  releasing: msg('Release'),
  refunding: msg('Refund'),
};

/** What a difference is about, as the reconciliation names it: an order, a kitchen, or the platform's sums. */
function scopeText(scope: string): string {
  const [kind, id] = scope.split(':');
  if (kind === 'order') return t('Order {id}', { id });
  if (kind === 'kitchen') return t('Kitchen {id}', { id });
  if (kind === 'credit') return id ? t('Store credit of customer {id}', { id }) : t('Store credit');
  return t('Platform');
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
          {t('Card payments')}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm" component="dl" m={0}>
          {TOTALS.map(([key, label]) => (
            <Paper key={key} withBorder radius="md" p="sm">
              <Text component="dt" size="sm" c="dimmed">
                {t(label)}
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
          {t('Differences with the provider')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {view.lastReconciledAt
            ? t('Reconciled with the payment provider {date}.', { date: formatWhen(view.lastReconciledAt) })
            : t('Not reconciled with the payment provider yet: it runs once a day.')}
        </Text>
        {view.differences.length === 0 ? (
          <Text>{t('No differences found')}</Text>
        ) : (
          <Stack
            component="ul"
            aria-label={t('Differences found')}
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
                <Text size="sm">{t(d.detail)}</Text>
              </Paper>
            ))}
          </Stack>
        )}
      </section>

      <section aria-labelledby="money-failing">
        <Title order={2} size="h3" id="money-failing" mb={4}>
          {t('Payment steps failing')}
        </Title>
        {view.failingSteps.length === 0 ? (
          <Text c="dimmed">{t('Every capture, release and refund went through')}</Text>
        ) : (
          <Table aria-label={t('Payment steps failing')} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Kitchen and order')}</Table.Th>
                <Table.Th>{t('Step')}</Table.Th>
                <Table.Th>{t('What the provider said')}</Table.Th>
                <Table.Th>{t('Next try')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.failingSteps.map((f) => (
                <Table.Tr key={f.orderId}>
                  <Table.Td>
                    {f.kitchenName}
                    <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {f.orderId}
                    </Text>
                  </Table.Td>
                  <Table.Td>{t(STEP_NAMES[f.state] ?? msg('Payment'))}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {f.error}
                    <Text size="xs" c="dimmed">
                      {t('{count, plural, one {# failed try} other {# failed tries}}', { count: f.failures })}
                    </Text>
                  </Table.Td>
                  <Table.Td fw={f.gaveUpAt ? 700 : undefined}>
                    {f.gaveUpAt
                      ? t('Given up {date}: settle it with the provider', { date: formatWhen(f.gaveUpAt) })
                      : f.nextTryAt
                        ? formatWhen(f.nextTryAt)
                        : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>

      <MoneyDisputes view={view} />

      <section aria-labelledby="money-refunds">
        <Title order={2} size="h3" id="money-refunds" mb="sm">
          {t('Latest refunds')}
        </Title>
        {view.refunds.length === 0 ? (
          <Text c="dimmed">{t('No refunds yet')}</Text>
        ) : (
          <Table aria-label={t('Latest refunds')} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('When')}</Table.Th>
                <Table.Th>{t('Kitchen and order')}</Table.Th>
                <Table.Th>{t('Amount')}</Table.Th>
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
