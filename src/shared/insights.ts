import { z } from 'zod';
import { calendarDay } from './fields.js';
import { t } from './i18n/translator.js';

/** The periods 'Insights' and 'Overview' offer; `custom` takes `from` and `to`. */
export const INSIGHT_PERIODS = ['week', '4weeks', '12months', 'custom'] as const;
export type InsightPeriod = (typeof INSIGHT_PERIODS)[number];

/** The longest custom period, in days. */
export const MAX_CUSTOM_DAYS = 400;

/** The charts whose data a CSV file carries (one table each, as 'Show as table' shows it). */
export const INSIGHT_CHARTS = ['sales', 'dishes', 'hours', 'customers', 'reliability', 'caps'] as const;
export const OVERVIEW_CHARTS = ['days', 'kitchens', 'hours', 'slow'] as const;

const periodFields = {
  period: z
    .enum(INSIGHT_PERIODS, {
      error: () => t('period must be one of {list}', { list: INSIGHT_PERIODS.join(', ') }),
    })
    .default('4weeks'),
  from: calendarDay('from').optional(),
  to: calendarDay('to').optional(),
};

const customNeedsDays = <
  T extends { period: InsightPeriod; from?: string | undefined; to?: string | undefined },
>(
  schema: z.ZodType<T>,
) =>
  schema
    .refine((q) => q.period !== 'custom' || q.from !== undefined, {
      error: () => t('A custom period needs from'),
      path: ['from'],
    })
    .refine((q) => q.period !== 'custom' || q.to !== undefined, {
      error: () => t('A custom period needs to'),
      path: ['to'],
    })
    .refine((q) => !q.from || !q.to || q.from <= q.to, {
      error: () => t('to must not be before from'),
      path: ['to'],
    })
    .refine((q) => !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) < MAX_CUSTOM_DAYS * 86_400_000, {
      error: () => t('A period may be at most {days} days long', { days: MAX_CUSTOM_DAYS }),
      path: ['to'],
    });

export const InsightsQuery = customNeedsDays(z.object(periodFields));
export type InsightsQuery = z.infer<typeof InsightsQuery>;

export const InsightsCsvQuery = customNeedsDays(
  z.object({
    ...periodFields,
    chart: z.enum(INSIGHT_CHARTS, {
      error: () => t('chart must be one of {list}', { list: INSIGHT_CHARTS.join(', ') }),
    }),
  }),
);
export type InsightsCsvQuery = z.infer<typeof InsightsCsvQuery>;

export const OverviewCsvQuery = customNeedsDays(
  z.object({
    ...periodFields,
    chart: z.enum(OVERVIEW_CHARTS, {
      error: () => t('chart must be one of {list}', { list: OVERVIEW_CHARTS.join(', ') }),
    }),
  }),
);
export type OverviewCsvQuery = z.infer<typeof OverviewCsvQuery>;

const int = () => z.number().int();

/** The days of a period and of the one before it, as long, in the kitchen's calendar. */
export const InsightsRange = z.object({
  period: z.enum(INSIGHT_PERIODS),
  from: z.string(),
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
  /** Bars per day, or per week (from Monday) for a long period. */
  bucket: z.enum(['day', 'week']),
});
export type InsightsRange = z.infer<typeof InsightsRange>;

/** One bar: a day or a week (its first day), with the previous period's bar at the same place. */
export const SalesBar = z.object({
  period: z.string(),
  orders: int(),
  itemsCents: int(),
  previousOrders: int(),
  previousItemsCents: int(),
  newCustomerOrders: int(),
  returningCustomerOrders: int(),
});
export type SalesBar = z.infer<typeof SalesBar>;

export const DishFigures = z.object({
  menuItemId: z.string(),
  item: z.string(),
  portions: int(),
  itemsCents: int(),
});
export type DishFigures = z.infer<typeof DishFigures>;

/** Orders by weekday (1 Monday … 7 Sunday) and hour of the kitchen's clock; empty cells left out. */
export const HeatCell = z.object({ weekday: int(), hour: int(), orders: int() });
export type HeatCell = z.infer<typeof HeatCell>;

export const BestCustomer = z.object({
  /** The first word of their name: never an email. */
  firstName: z.string(),
  orders: int(),
  lastOrderedAt: z.string(),
});
export type BestCustomer = z.infer<typeof BestCustomer>;

export const Reliability = z.object({
  /** Orders that reached the kitchen in the period. */
  orders: int(),
  /** Accepted: always in time (the marketplace declines an order unanswered at its deadline). */
  accepted: int(),
  declined: int(),
  /** Declined by the marketplace: not answered in time. */
  notAnswered: int(),
  cancelledByKitchen: int(),
  cancelledByCustomer: int(),
  delivered: int(),
  /** Averages over the orders they apply to; null without any. */
  minutesToAccept: z.number().nullable(),
  minutesToReady: z.number().nullable(),
});
export type Reliability = z.infer<typeof Reliability>;

export const RatingPoint = z.object({ period: z.string(), reviews: int(), average: z.number() });
export type RatingPoint = z.infer<typeof RatingPoint>;

/** Meals a kitchen's orders counted (as its home-kitchen caps count them) in a day or a week, against the cap. */
export const MealsBar = z.object({ period: z.string(), meals: int() });
export type MealsBar = z.infer<typeof MealsBar>;

/** Where the kitchen's place caps its meals: each day's and each week's count over the period, and the caps. */
export const CapsFigures = z.object({
  mealsPerDay: int().nullable(),
  mealsPerWeek: int().nullable(),
  /** The period's days (only when its bars are days: a year of days is not drawn). */
  days: z.array(MealsBar),
  /** The weeks (from Monday) the period touches. */
  weeks: z.array(MealsBar),
});
export type CapsFigures = z.infer<typeof CapsFigures>;

export const Insights = z.object({
  range: InsightsRange,
  timeZone: z.string(),
  currency: z.string(),
  totals: z.object({
    orders: int(),
    itemsCents: int(),
    grossCents: int(),
    refundedCents: int(),
    previousOrders: int(),
    previousItemsCents: int(),
  }),
  sales: z.array(SalesBar),
  dishes: z.array(DishFigures),
  /** Dishes on the menu with no portion sold in the last 30 days. */
  unsold: z.array(z.object({ menuItemId: z.string(), item: z.string() })),
  hours: z.array(HeatCell),
  customers: z.object({
    /** Customers who ever ordered, and those of them who ordered again: the repeat rate's parts. */
    customers: int(),
    returning: int(),
    best: z.array(BestCustomer),
  }),
  reliability: Reliability,
  rating: z.array(RatingPoint),
  /** Null where the kitchen's place caps no meals. */
  caps: CapsFigures.nullable(),
});
export type Insights = z.infer<typeof Insights>;

export const OverviewDay = z.object({
  day: z.string(),
  grossCents: int(),
  orders: int(),
  refundedCents: int(),
  activeKitchens: int(),
  newCustomers: int(),
});
export type OverviewDay = z.infer<typeof OverviewDay>;

export const OverviewKitchen = z.object({
  uid: z.string(),
  name: z.string(),
  orders: int(),
  grossCents: int(),
  previousOrders: int(),
  minutesToAccept: z.number().nullable(),
  /** Declined, not answered or cancelled by the kitchen, of its orders (0–1). */
  turnedDown: z.number(),
});
export type OverviewKitchen = z.infer<typeof OverviewKitchen>;

export const Overview = z.object({
  range: InsightsRange,
  currency: z.string(),
  days: z.array(OverviewDay),
  hours: z.array(z.object({ hour: int(), orders: int() })),
  topKitchens: z.array(OverviewKitchen),
  /** Slow to accept (over 15 minutes on average), turning down over a fifth, or at half the orders before. */
  slowKitchens: z.array(OverviewKitchen),
  openReports: int(),
});
export type Overview = z.infer<typeof Overview>;
