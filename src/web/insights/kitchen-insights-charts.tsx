import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { List, SimpleGrid, Stack, Text } from '@mantine/core';
import type { CapsFigures, Insights, MealsBar } from '../../shared/insights.js';
import { t, translator } from '../i18n.js';
import { ChartCard } from './chart-card.js';
import { HeatMap } from './heat-map.js';
import { barName, hourName, minutesText, moneyOf, percent, shortDay, weekdayName } from './insight-format.js';
import { insightsCsvUrl, type PeriodChoice } from './use-insights.js';

const CHART_HEIGHT = 220;

/**
 * The charts of a cook's 'Insights' (loaded with this page only: the chart library is not in the first view). Each
 * chart has its table behind 'Show as table', and its CSV file.
 */
export function KitchenInsightsCharts({ insights, choice }: { insights: Insights; choice: PeriodChoice }) {
  const money = moneyOf(insights.currency);
  const { range, totals, reliability, customers } = insights;
  const bars = insights.sales.map((bar) => ({ ...bar, name: barName(range, bar.period) }));
  const salesLabel = t('Sales');
  const previousLabel = t('Previous period');
  return (
    <Stack gap="lg">
      <ChartCard
        title={range.bucket === 'day' ? t('Sales per day') : t('Sales per week')}
        summary={t(
          '{sales} from {count, plural, one {# order} other {# orders}}; the previous period: {previous}.',
          {
            sales: money(totals.itemsCents),
            count: totals.orders,
            previous: money(totals.previousItemsCents),
          },
        )}
        table={{
          columns: [
            t('Period'),
            t('Orders'),
            salesLabel,
            t('Orders, previous period'),
            t('Sales, previous period'),
          ],
          rows: bars.map((bar) => [
            bar.name,
            bar.orders,
            money(bar.itemsCents),
            bar.previousOrders,
            money(bar.previousItemsCents),
          ]),
        }}
        csvUrl={insightsCsvUrl(choice, 'sales')}
      >
        <BarChart
          h={CHART_HEIGHT}
          data={bars}
          dataKey="name"
          accessibilityLayer={false}
          valueFormatter={money}
          withLegend
          series={[
            { name: 'previousItemsCents', label: previousLabel, color: 'gray.3' },
            { name: 'itemsCents', label: salesLabel, color: 'teal.7' },
          ]}
        />
      </ChartCard>

      <ChartCard
        title={t('Dishes that sell')}
        summary={
          insights.unsold.length > 0
            ? t('Not sold in 30 days: {dishes}', {
                dishes: translator().list(insights.unsold.map((d) => d.item)),
              })
            : undefined
        }
        table={{
          columns: [t('Dish'), t('Portions'), t('Takings')],
          rows: insights.dishes.map((d) => [d.item, d.portions, money(d.itemsCents)]),
        }}
        csvUrl={insightsCsvUrl(choice, 'dishes')}
      >
        <BarChart
          h={Math.max(120, insights.dishes.length * 36)}
          data={insights.dishes}
          dataKey="item"
          orientation="vertical"
          accessibilityLayer={false}
          yAxisProps={{ width: 110 }}
          series={[{ name: 'portions', label: t('Portions'), color: 'orange.7' }]}
        />
      </ChartCard>

      <ChartCard
        title={t('When orders come')}
        table={{
          columns: [t('Weekday'), t('Hour'), t('Orders')],
          rows: insights.hours.map((cell) => [weekdayName(cell.weekday), hourName(cell.hour), cell.orders]),
        }}
        csvUrl={insightsCsvUrl(choice, 'hours')}
      >
        <HeatMap cells={insights.hours} />
      </ChartCard>

      <ChartCard
        title={t('Customers')}
        summary={t('Repeat rate: {rate} ({returning} of {customers} customers ordered again)', {
          rate: percent(customers.returning, customers.customers),
          returning: customers.returning,
          customers: customers.customers,
        })}
        table={{
          columns: [t('Period'), t('New customers’ orders'), t('Returning customers’ orders')],
          rows: bars.map((bar) => [bar.name, bar.newCustomerOrders, bar.returningCustomerOrders]),
        }}
        csvUrl={insightsCsvUrl(choice, 'customers')}
        extra={
          customers.best.length > 0 ? (
            <div>
              <Text fw={600} size="sm">
                {t('Best customers')}
              </Text>
              <List size="sm">
                {customers.best.map((c, i) => (
                  <List.Item key={i}>
                    {t('{name}: {count, plural, one {# order} other {# orders}}, last {day}', {
                      name: c.firstName,
                      count: c.orders,
                      day: shortDay(new Date(c.lastOrderedAt).toISOString().slice(0, 10)),
                    })}
                  </List.Item>
                ))}
              </List>
            </div>
          ) : null
        }
      >
        <BarChart
          h={CHART_HEIGHT}
          data={bars}
          dataKey="name"
          type="stacked"
          accessibilityLayer={false}
          withLegend
          series={[
            { name: 'newCustomerOrders', label: t('New customers’ orders'), color: 'blue.7' },
            { name: 'returningCustomerOrders', label: t('Returning customers’ orders'), color: 'grape.6' },
          ]}
        />
      </ChartCard>

      <ChartCard
        title={t('Reliability')}
        summary={
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
            <Figure label={t('Accepted in time')} value={percent(reliability.accepted, reliability.orders)} />
            <Figure label={t('Declined')} value={String(reliability.declined)} />
            <Figure label={t('Not answered in time')} value={String(reliability.notAnswered)} />
            <Figure label={t('Cancelled by the kitchen')} value={String(reliability.cancelledByKitchen)} />
            <Figure label={t('Minutes to accept')} value={minutesText(reliability.minutesToAccept)} />
            <Figure label={t('Minutes to ready')} value={minutesText(reliability.minutesToReady)} />
          </SimpleGrid>
        }
        table={{
          columns: [
            t('Orders'),
            t('Accepted in time'),
            t('Declined'),
            t('Not answered in time'),
            t('Cancelled by the kitchen'),
            t('Minutes to accept'),
            t('Minutes to ready'),
          ],
          rows: [
            [
              reliability.orders,
              reliability.accepted,
              reliability.declined,
              reliability.notAnswered,
              reliability.cancelledByKitchen,
              minutesText(reliability.minutesToAccept),
              minutesText(reliability.minutesToReady),
            ],
            ...insights.rating.map((r) => [
              t('Rating {day}: {average} from {count, plural, one {# review} other {# reviews}}', {
                day: barName(range, r.period),
                average: r.average,
                count: r.reviews,
              }),
            ]),
          ],
        }}
        csvUrl={insightsCsvUrl(choice, 'reliability')}
      >
        {insights.rating.length > 0 ? (
          <LineChart
            h={160}
            data={insights.rating.map((r) => ({ ...r, name: barName(range, r.period) }))}
            dataKey="name"
            accessibilityLayer={false}
            yAxisProps={{ domain: [1, 5] }}
            series={[{ name: 'average', label: t('Rating'), color: 'yellow.7' }]}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t('No reviews in this period')}
          </Text>
        )}
      </ChartCard>
      {insights.caps && <MealsAgainstCaps caps={insights.caps} choice={choice} />}
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </div>
  );
}

/**
 * The meals the home-kitchen rules count, per day and per week, each against its cap (a line): how close the kitchen
 * runs to being fully booked, before the menu says so.
 */
function MealsAgainstCaps({ caps, choice }: { caps: CapsFigures; choice: PeriodChoice }) {
  const charts: { title: string; bars: MealsBar[]; cap: number; name: (period: string) => string }[] = [];
  if (caps.mealsPerDay !== null && caps.days.length > 0)
    charts.push({
      title: t('Meals per day against the cap'),
      bars: caps.days,
      cap: caps.mealsPerDay,
      name: shortDay,
    });
  if (caps.mealsPerWeek !== null)
    charts.push({
      title: t('Meals per week against the cap'),
      bars: caps.weeks,
      cap: caps.mealsPerWeek,
      name: (period) => t('Week of {day}', { day: shortDay(period) }),
    });
  const mealsLabel = t('Meals');
  return charts.map(({ title, bars, cap, name }) => {
    const data = bars.map((bar) => ({ ...bar, name: name(bar.period) }));
    const busiest = Math.max(0, ...bars.map((bar) => bar.meals));
    return (
      <ChartCard
        key={title}
        title={title}
        summary={t('The cap: {cap} meals. The most counted: {busiest}.', { cap, busiest })}
        table={{
          columns: [t('Period'), mealsLabel, t('Cap')],
          rows: data.map((bar) => [bar.name, bar.meals, cap]),
        }}
        csvUrl={insightsCsvUrl(choice, 'caps')}
      >
        <BarChart
          h={CHART_HEIGHT}
          data={data}
          dataKey="name"
          accessibilityLayer={false}
          yAxisProps={{ domain: [0, Math.max(cap, busiest)] }}
          referenceLines={[{ y: cap, label: t('Cap'), color: 'red.7' }]}
          series={[{ name: 'meals', label: mealsLabel, color: 'indigo.7' }]}
        />
      </ChartCard>
    );
  });
}
