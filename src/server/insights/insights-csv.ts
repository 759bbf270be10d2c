import { decimalAmount } from '../../shared/money.js';
import type { Insights, InsightsCsvQuery, Overview, OverviewCsvQuery } from '../../shared/insights.js';
import { msg, type Translator } from '../../shared/i18n/translator.js';
import { csvFile, textCell } from '../lib/csv.js';

type Cell = string | number | null;

/** A table: its header (messages, written in the reader's language) and its rows (text, integers, or money). */
interface Table {
  header: string[];
  rows: Cell[][];
}

const text = (value: string): Cell => value;
/** Numbers (amounts written as decimals among them) as they are; any other text through `textCell`. */
const cellOf = (value: Cell) =>
  value === null
    ? ''
    : typeof value === 'number' || /^-?\d+(\.\d+)?$/.test(value)
      ? String(value)
      : textCell(value);

function insightsTable(insights: Insights, chart: InsightsCsvQuery['chart']): Table {
  const money = (minor: number) => decimalAmount(minor, insights.currency);
  switch (chart) {
    case 'sales':
      return {
        header: [
          msg('Period'),
          msg('Orders'),
          msg('Sales'),
          msg('Orders, previous period'),
          msg('Sales, previous period'),
          msg('New customers’ orders'),
          msg('Returning customers’ orders'),
        ],
        rows: insights.sales.map((bar) => [
          text(bar.period),
          bar.orders,
          money(bar.itemsCents),
          bar.previousOrders,
          money(bar.previousItemsCents),
          bar.newCustomerOrders,
          bar.returningCustomerOrders,
        ]),
      };
    case 'dishes':
      return {
        header: [msg('Dish'), msg('Portions'), msg('Takings')],
        rows: insights.dishes.map((dish) => [text(dish.item), dish.portions, money(dish.itemsCents)]),
      };
    case 'hours':
      return {
        header: [msg('Weekday'), msg('Hour'), msg('Orders')],
        rows: insights.hours.map((cell) => [cell.weekday, cell.hour, cell.orders]),
      };
    case 'customers':
      return {
        header: [msg('Customer'), msg('Orders'), msg('Last ordered')],
        rows: insights.customers.best.map((c) => [text(c.firstName), c.orders, text(c.lastOrderedAt)]),
      };
    case 'caps': {
      // Each day's meals against the day's cap, then each week's against the week's (empty where none is set).
      const caps = insights.caps;
      return {
        header: [msg('Period'), msg('Meals'), msg('Cap')],
        rows: caps
          ? [
              ...caps.days.map((bar): Cell[] => [text(bar.period), bar.meals, caps.mealsPerDay]),
              ...caps.weeks.map((bar): Cell[] => [text(`${bar.period}/P1W`), bar.meals, caps.mealsPerWeek]),
            ]
          : [],
      };
    }
    case 'reliability': {
      const r = insights.reliability;
      return {
        header: [
          msg('Orders'),
          msg('Accepted in time'),
          msg('Declined'),
          msg('Not answered in time'),
          msg('Cancelled by the kitchen'),
          msg('Minutes to accept'),
          msg('Minutes to ready'),
        ],
        rows: [
          [
            r.orders,
            r.accepted,
            r.declined,
            r.notAnswered,
            r.cancelledByKitchen,
            r.minutesToAccept,
            r.minutesToReady,
          ],
        ],
      };
    }
  }
}

function overviewTable(overview: Overview, chart: OverviewCsvQuery['chart']): Table {
  const money = (minor: number) => decimalAmount(minor, overview.currency);
  const kitchens = (list: Overview['topKitchens']): Table => ({
    header: [
      msg('Kitchen'),
      msg('Orders'),
      msg('Gross order value'),
      msg('Orders, previous period'),
      msg('Minutes to accept'),
      msg('Turned down'),
    ],
    rows: list.map((k) => [
      text(k.name),
      k.orders,
      money(k.grossCents),
      k.previousOrders,
      k.minutesToAccept,
      k.turnedDown,
    ]),
  });
  switch (chart) {
    case 'days':
      return {
        header: [
          msg('Day'),
          msg('Gross order value'),
          msg('Orders'),
          msg('Refunds'),
          msg('Active kitchens'),
          msg('New customers'),
        ],
        rows: overview.days.map((d) => [
          text(d.day),
          money(d.grossCents),
          d.orders,
          money(d.refundedCents),
          d.activeKitchens,
          d.newCustomers,
        ]),
      };
    case 'hours':
      return { header: [msg('Hour'), msg('Orders')], rows: overview.hours.map((h) => [h.hour, h.orders]) };
    case 'kitchens':
      return kitchens(overview.topKitchens);
    case 'slow':
      return kitchens(overview.slowKitchens);
  }
}

const fileOf = (table: Table, tr: Translator) =>
  csvFile([
    table.header.map((column) => textCell(tr.t(column))),
    ...table.rows.map((row) => row.map(cellOf)),
  ]);

/** One chart of a cook's insights as a CSV file: the table 'Show as table' shows. */
export const insightsCsv = (insights: Insights, chart: InsightsCsvQuery['chart'], tr: Translator) =>
  fileOf(insightsTable(insights, chart), tr);

/** One chart of the operator's overview as a CSV file. */
export const overviewCsv = (overview: Overview, chart: OverviewCsvQuery['chart'], tr: Translator) =>
  fileOf(overviewTable(overview, chart), tr);

/** `insights-sales-2026-11-02-to-2026-11-29.csv`. */
export const csvFileName = (what: string, chart: string, range: { from: string; to: string }) =>
  `${what}-${chart}-${range.from}-to-${range.to}.csv`;
