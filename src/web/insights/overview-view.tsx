import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { Overview, OverviewKitchen } from '../../shared/insights.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { t } from '../i18n.js';
import { ChartCard } from './chart-card.js';
import { hourName, minutesText, moneyOf, percent, shortDay } from './insight-format.js';
import { PeriodPicker } from './period-picker.js';
import { overviewCsvUrl, useOverview, type PeriodChoice } from './use-insights.js';

const CHART_HEIGHT = 200;

/** The operator's 'Overview' tab (loaded when opened: the chart library comes with it). */
export function OverviewTab() {
  const [choice, setChoice] = useState<PeriodChoice>({ period: '4weeks' });
  const overview = useOverview(choice);
  return (
    <Stack gap="lg">
      <PeriodPicker
        choice={choice}
        onChange={setChoice}
        shown={overview.data?.range}
        error={overview.error}
      />
      {overview.isPending ? (
        <Spinner label={t('Loading the overview')} />
      ) : overview.isError && !overview.data ? (
        <LoadFailed
          title={t('Could not load the overview')}
          error={overview.error}
          retry={() => void overview.refetch()}
        />
      ) : (
        <OverviewCharts overview={overview.data} choice={choice} />
      )}
    </Stack>
  );
}

function OverviewCharts({ overview, choice }: { overview: Overview; choice: PeriodChoice }) {
  const money = moneyOf(overview.currency);
  const days = overview.days.map((d) => ({ ...d, name: shortDay(d.day) }));
  const total = (pick: (d: Overview['days'][number]) => number) =>
    overview.days.reduce((s, d) => s + pick(d), 0);
  const kitchenColumns = [
    t('Kitchen'),
    t('Orders'),
    t('Gross order value'),
    t('Orders, previous period'),
    t('Minutes to accept'),
    t('Turned down'),
  ];
  const kitchenRow = (k: OverviewKitchen) => [
    k.name,
    k.orders,
    money(k.grossCents),
    k.previousOrders,
    minutesText(k.minutesToAccept),
    percent(k.turnedDown, 1),
  ];
  return (
    <Stack gap="lg">
      <Text>
        {t(
          'Gross order value {gross}, {orders, plural, one {# order} other {# orders}}, refunds {refunds}; {reports, plural, one {# open problem report} other {# open problem reports}}.',
          {
            gross: money(total((d) => d.grossCents)),
            orders: total((d) => d.orders),
            refunds: money(total((d) => d.refundedCents)),
            reports: overview.openReports,
          },
        )}
      </Text>
      <ChartCard
        title={t('Gross order value per day')}
        table={{
          columns: [
            t('Day'),
            t('Gross order value'),
            t('Orders'),
            t('Refunds'),
            t('Active kitchens'),
            t('New customers'),
          ],
          rows: days.map((d) => [
            d.name,
            money(d.grossCents),
            d.orders,
            money(d.refundedCents),
            d.activeKitchens,
            d.newCustomers,
          ]),
        }}
        csvUrl={overviewCsvUrl(choice, 'days')}
      >
        <BarChart
          h={CHART_HEIGHT}
          data={days}
          dataKey="name"
          accessibilityLayer={false}
          valueFormatter={money}
          withLegend
          series={[
            { name: 'grossCents', label: t('Gross order value'), color: 'teal.7' },
            { name: 'refundedCents', label: t('Refunds'), color: 'red.7' },
          ]}
        />
      </ChartCard>
      <ChartCard
        title={t('Orders, active kitchens and new customers per day')}
        table={{
          columns: [t('Day'), t('Orders'), t('Active kitchens'), t('New customers')],
          rows: days.map((d) => [d.name, d.orders, d.activeKitchens, d.newCustomers]),
        }}
        csvUrl={overviewCsvUrl(choice, 'days')}
      >
        <BarChart
          h={CHART_HEIGHT}
          data={days}
          dataKey="name"
          accessibilityLayer={false}
          withLegend
          series={[
            { name: 'orders', label: t('Orders'), color: 'blue.7' },
            { name: 'activeKitchens', label: t('Active kitchens'), color: 'orange.7' },
            { name: 'newCustomers', label: t('New customers'), color: 'grape.6' },
          ]}
        />
      </ChartCard>
      <ChartCard
        title={t('Orders by hour')}
        table={{
          columns: [t('Hour'), t('Orders')],
          rows: overview.hours.map((h) => [hourName(h.hour), h.orders]),
        }}
        csvUrl={overviewCsvUrl(choice, 'hours')}
      >
        <BarChart
          h={CHART_HEIGHT}
          data={overview.hours.map((h) => ({ ...h, name: hourName(h.hour) }))}
          dataKey="name"
          accessibilityLayer={false}
          series={[{ name: 'orders', label: t('Orders'), color: 'blue.7' }]}
        />
      </ChartCard>
      <KitchensTable
        title={t('Top kitchens')}
        columns={kitchenColumns}
        rows={overview.topKitchens.map(kitchenRow)}
        csvUrl={overviewCsvUrl(choice, 'kitchens')}
      />
      <KitchensTable
        title={t('Slow or declining kitchens')}
        columns={kitchenColumns}
        rows={overview.slowKitchens.map(kitchenRow)}
        csvUrl={overviewCsvUrl(choice, 'slow')}
      />
    </Stack>
  );
}

/** A list of kitchens is a table already: shown as one, with its CSV file. */
function KitchensTable({
  title,
  columns,
  rows,
  csvUrl,
}: {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  csvUrl: string;
}) {
  return (
    <section>
      <Text fw={700} component="h2" size="lg" mb="xs">
        {title}{' '}
        <Text component="a" href={csvUrl} download size="sm" fw={400} c="blue.8">
          {t('CSV')}
        </Text>
      </Text>
      <Table.ScrollContainer minWidth={560}>
        <Table striped withTableBorder fz="sm">
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c} scope="col">
                  {c}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>{t('Nothing in this period')}</Table.Td>
              </Table.Tr>
            ) : (
              rows.map((row, i) => (
                <Table.Tr key={i}>
                  {row.map((cell, j) => (
                    <Table.Td key={j}>{cell}</Table.Td>
                  ))}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </section>
  );
}
