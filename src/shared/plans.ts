import { z } from 'zod';
import { t } from './i18n/translator.js';
import { instantAt, localTime, WEEKDAYS, type Weekday } from './opening-hours.js';
import { MAX_DAYS_AHEAD } from './ordering.js';
import { parsePriceToCents } from './money.js';
import { MAX_ITEMS_PER_ORDER, PlaceOrderInput } from './orders.js';

/**
 * Weekly plans (ADR 26): a customer's pre-order repeated every week on the same day and slot, with the same dishes,
 * at a kitchen that offers them. Each week's order is placed at the week's cut-off (hours before its slot, the
 * kitchen's setting), by a job; a week is named by the local date of its slot in the kitchen's time zone.
 */

/** What a plan is: active (its weeks are placed, unless skipped or before its pause ends) or cancelled. */
export const PLAN_STATUSES = ['active', 'cancelled'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/**
 * What became of one week of a plan: skipped by the customer, being placed (a placement holds it), placed (its
 * order), or failed (why, told to the customer).
 */
export const PLAN_WEEK_STATES = ['skipped', 'placing', 'placed', 'failed'] as const;
export type PlanWeekState = (typeof PLAN_WEEK_STATES)[number];

/** A change to a week whose cut-off has passed (409 naming `week`). */
export const PLAN_CUTOFF_PASSED = 'PLAN_CUTOFF_PASSED';
/** The kitchen does not offer weekly plans (409 naming `kitchenUid`). */
export const PLANS_NOT_OFFERED = 'PLANS_NOT_OFFERED';
/** A plan's week could not be placed: the kitchen's orders' refusal code is kept; this when none applies. */
export const PLAN_PLACEMENT_FAILED = 'PLAN_PLACEMENT_FAILED';
/** A card plan's week whose card was declined, or not saved yet, or that its customer did not confirm in time. */
export const PLAN_CARD_FAILED = 'PLAN_CARD_FAILED';
/** A week whose dishes could not be chosen: nothing on the menu fits, or a dish left it and may not be replaced. */
export const PLAN_DISHES_UNAVAILABLE = 'PLAN_DISHES_UNAVAILABLE';
/** The kitchen does not allow the cook's choice. */
export const COOKS_CHOICE_NOT_ALLOWED = 'COOKS_CHOICE_NOT_ALLOWED';

/** The cut-off: from 1 hour to the furthest a kitchen takes pre-orders (5 days) before the slot. */
export const MIN_CUTOFF_HOURS = 1;
export const MAX_CUTOFF_HOURS = MAX_DAYS_AHEAD * 24;
export const DEFAULT_CUTOFF_HOURS = 48;

const addDays = (date: string, days: number) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};
const weekdayOf = (date: string): Weekday => WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()]!;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** When a plan's orders are: its weekday and slot start in the kitchen's zone, and the kitchen's cut-off. */
export interface PlanTiming {
  weekday: Weekday;
  /** 'HH:MM', the slot's start in the kitchen's time zone. */
  slotTime: string;
  timeZone: string;
  cutoffHours: number;
}

/** One week of a plan: the local date of its slot, the slot's start, and the cut-off before it. */
export interface PlanWeekTime {
  slotDate: string;
  slotStart: Date;
  cutoff: Date;
}

/**
 * The week of a plan whose slot is on `slotDate` (a local date of the plan's weekday): its slot's start is that
 * date's wall time in the kitchen's zone (a day of 23 or 25 hours included), its cut-off that many real hours before.
 */
export function planWeekAt(plan: PlanTiming, slotDate: string): PlanWeekTime {
  const slotStart = instantAt(slotDate, minutesOf(plan.slotTime), plan.timeZone);
  return { slotDate, slotStart, cutoff: new Date(slotStart.getTime() - plan.cutoffHours * 3_600_000) };
}

/**
 * The plan's weeks whose slot starts after `now`, soonest first, `count` of them: from the kitchen's local today
 * (its date in the kitchen's zone), on the plan's weekday.
 */
export function upcomingWeeks(plan: PlanTiming, now: Date, count: number): PlanWeekTime[] {
  const today = localTime(now, plan.timeZone).date;
  const weeks: PlanWeekTime[] = [];
  for (let day = -1; weeks.length < count && day <= 7 * count + 7; day++) {
    const date = addDays(today, day);
    if (weekdayOf(date) !== plan.weekday) continue;
    const week = planWeekAt(plan, date);
    if (week.slotStart.getTime() > now.getTime()) weeks.push(week);
  }
  return weeks;
}

/**
 * The week to place now: the soonest whose slot has not started and whose cut-off has come; undefined while the
 * next week's cut-off is still ahead. A cut-off is at most 5 days before its slot, so at most one week is due.
 */
export function dueWeek(plan: PlanTiming, now: Date): PlanWeekTime | undefined {
  const [next] = upcomingWeeks(plan, now, 1);
  return next && next.cutoff.getTime() <= now.getTime() ? next : undefined;
}

/** The kitchen's weekday of a date ('YYYY-MM-DD'). */
export const planWeekday = weekdayOf;

const WeekDate = z
  .string({ error: () => t('Week must be a date') })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: () => t('Week must be a date') })
  .refine((value) => Number.isFinite(Date.parse(value)), { error: () => t('Week must be a date') });

/**
 * POST /api/plans: 'Every week' for a pre-order. The slot (one of the kitchen's, as for a pre-order) gives the day
 * and time of every week's order; the dishes (ids, a dish repeated for each portion) are repeated every week; the
 * plan's first week is the one after that slot's (the pre-order itself is that week's order).
 */
const order = PlaceOrderInput.shape;
export const PlanInput = z
  .object({
    kitchenUid: order.kitchenUid,
    address: order.address,
    fulfilment: order.fulfilment,
    note: order.note,
    allergensAcknowledged: order.allergensAcknowledged,
    location: order.location,
    payment: order.payment,
  })
  .extend({
    itemIds: z
      .array(z.string().uuid({ error: () => t('Each item must be a menu item id') }), {
        error: () => t('Items are required'),
      })
      .min(1, { error: () => t('Your cart is empty') })
      .max(MAX_ITEMS_PER_ORDER, {
        error: () => t('At most {max} items per order', { max: String(MAX_ITEMS_PER_ORDER) }),
      }),
    slotStart: z
      .string({ error: () => t('Slot must be a time') })
      .max(40, { error: () => t('Slot must be a time') })
      .refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(Date.parse(value)), {
        error: () => t('Slot must be a time'),
      }),
  })
  .superRefine((input, ctx) => {
    if (input.fulfilment !== 'pickup' && input.address === undefined)
      ctx.addIssue({ code: 'custom', path: ['address'], message: t('Delivery address is required') });
  });
export type PlanInput = z.infer<typeof PlanInput>;

/** PATCH /api/plans/:id: skip a week or take it back, pause until a date, resume, cancel. */
export const PlanChange = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('skip'), week: WeekDate }),
    z.object({ action: z.literal('unskip'), week: WeekDate }),
    z.object({ action: z.literal('pause'), until: WeekDate }),
    z.object({ action: z.literal('resume') }),
    z.object({ action: z.literal('cancel') }),
    // A card plan's card-saving page: the one open, or a fresh one (the first expired, or 'Change card').
    z.object({ action: z.literal('card') }),
    // 'Let the cook choose' within a budget a week (dishes only, fees apart), where the kitchen allows it.
    z.object({
      action: z.literal('cooks-choice'),
      budget: z
        .string({ error: () => t('Budget must be an amount like 25.00') })
        .trim()
        .max(20, { error: () => t('Budget must be an amount like 25.00') })
        .refine((v) => (parsePriceToCents(v) ?? 0) > 0, {
          error: () => t('Budget must be an amount like 25.00'),
        }),
    }),
    // The dishes (ids, one per portion) for one week only (`week`), or for good (every week not yet placed).
    z.object({ action: z.literal('dishes'), itemIds: PlanInput.shape.itemIds, week: WeekDate.optional() }),
  ],
  {
    error: () =>
      t("Action must be 'skip', 'unskip', 'pause', 'resume', 'cancel', 'dishes', 'cooks-choice' or 'card'"),
  },
);
export type PlanChange = z.infer<typeof PlanChange>;

export const PlanParams = z.object({ id: z.string().uuid({ error: () => t('Plan id must be a uuid') }) });

/** A dish of a plan and how many of it (`itemId` null: a dish no longer on the menu). */
export const PlanLine = z.object({
  itemId: z.string().nullable(),
  item: z.string(),
  quantity: z.number().int(),
  priceCents: z.number().int(),
});

/** One week of a plan as its customer sees it. */
export const PlanWeek = z.object({
  /** The local date of the week's slot, in the kitchen's time zone: the week's name. */
  week: z.string(),
  slotStart: z.string(),
  /** Changes to this week are taken until then. */
  cutoff: z.string(),
  /** 'planned': nothing happened yet; 'paused': before the plan's pause ends. */
  state: z.enum(['planned', 'paused', ...PLAN_WEEK_STATES]),
  orderId: z.string().nullable(),
  /** Why it could not be placed (a failed week). */
  reason: z.string().nullable(),
  /** The dishes of this week only, where the customer changed them for it (null: the plan's). */
  items: z.array(PlanLine).nullable(),
});
export type PlanWeek = z.infer<typeof PlanWeek>;
export type PlanLine = z.infer<typeof PlanLine>;

/** A customer's plan: 'Your plans'. */
export const CustomerPlan = z.object({
  id: z.string(),
  kitchenUid: z.string().nullable(),
  kitchenName: z.string(),
  timeZone: z.string(),
  weekday: z.enum(WEEKDAYS),
  slotTime: z.string(),
  fulfilment: z.enum(['delivery', 'pickup']),
  payment: z.enum(['card', 'cash']),
  items: z.array(PlanLine),
  /** 'waiting-for-card': a card plan whose card is not saved yet; no week is ordered until it is. */
  status: z.enum(['active', 'paused', 'cancelled', 'waiting-for-card']),
  /** Where the customer saves the card of a plan waiting for it (the provider's page), else null. */
  cardSetupUrl: z.string().nullable(),
  /** A card plan with a card saved (charged each week; a new one saved on `cardSetupUrl` replaces it). */
  hasCard: z.boolean(),
  pausedUntil: z.string().nullable(),
  /** 'Let the cook choose': the week's dishes are the cook's, within `budgetCents` (dishes only). */
  cooksChoice: z.boolean(),
  budgetCents: z.number().int().nullable(),
  /** The next four weeks, soonest first (none for a cancelled plan), and the latest week that failed. */
  weeks: z.array(PlanWeek),
});
export type CustomerPlan = z.infer<typeof CustomerPlan>;

/** 'Offer weekly plans' on the cook's dashboard. */
export const PlanSettings = z.object({
  offered: z.boolean({ error: () => t('Offer weekly plans must be true or false') }),
  /** 'Cook's choice allowed' (kept as it is when not sent). */
  cooksChoice: z.boolean({ error: () => t("Cook's choice allowed must be true or false") }).optional(),
  cutoffHours: z
    .number({ error: () => t('Cut-off must be a number of hours') })
    .int({ error: () => t('Cut-off must be a whole number of hours') })
    .min(MIN_CUTOFF_HOURS, {
      error: () => t('Cut-off must be at least {min} hours', { min: String(MIN_CUTOFF_HOURS) }),
    })
    .max(MAX_CUTOFF_HOURS, {
      error: () => t('Cut-off must be at most {max} hours', { max: String(MAX_CUTOFF_HOURS) }),
    }),
});
export type PlanSettings = z.infer<typeof PlanSettings>;

/** One slot of one week on the cook's 'Plans': how many planned orders and meals, and the dishes to cook. */
export const PlannedSlot = z.object({
  week: z.string(),
  slotStart: z.string(),
  cutoff: z.string(),
  orders: z.number().int(),
  meals: z.number().int(),
  dishes: z.array(z.object({ item: z.string(), quantity: z.number().int() })),
  /** Of those, placed already (at the cut-off), and failed (why, each). */
  placed: z.number().int(),
  failed: z.number().int(),
});
export type PlannedSlot = z.infer<typeof PlannedSlot>;

/** GET /api/kitchen/plans: the cook's 'Plans'. */
export const KitchenPlans = z.object({
  settings: PlanSettings,
  /** The next four weeks' slots with planned meals, soonest first. */
  slots: z.array(PlannedSlot),
});
export type KitchenPlans = z.infer<typeof KitchenPlans>;

/** One week of a plan on the operator's view: its kitchen, slot and cut-off; why it failed (a failed one). */
export const PlacementRow = z.object({
  planId: z.string(),
  kitchenName: z.string(),
  week: z.string(),
  slotStart: z.string(),
  cutoff: z.string(),
  /** Its cut-off has passed and it is not placed yet (the job is late, or a placement is holding it). */
  overdue: z.boolean(),
  reason: z.string().nullable(),
});
export type PlacementRow = z.infer<typeof PlacementRow>;

/** GET /api/operator/plans: the placements of the next 24 hours (and any overdue), and the weeks that failed. */
export const OperatorPlacements = z.object({
  due: z.array(PlacementRow),
  /** Failed in the last 7 days, newest first (at most 100). */
  failed: z.array(PlacementRow),
});
export type OperatorPlacements = z.infer<typeof OperatorPlacements>;
