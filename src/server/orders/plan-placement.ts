import { and, eq, gt, lt, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { msg, translator } from '../../shared/i18n/translator.js';
import {
  PLAN_CARD_FAILED,
  PLAN_PLACEMENT_FAILED,
  PLANS_NOT_OFFERED,
  dueWeek,
  MAX_CUTOFF_HOURS,
  upcomingWeeks,
  type PlanWeekTime,
} from '../../shared/plans.js';
import { kitchens, mealPlans, mealPlanWeeks, users } from '../db/schema.js';
import { mutate } from '../events/mutate.js';
import { HttpError } from '../lib/errors.js';
import { registerPeriodicTask } from '../lib/periodic.js';
import { placeOrder } from './place-order.js';
import { pausedFor, timingOf } from './plans.js';
import { chargePlanWeek, planCard } from './plan-cards.js';
import { weekDishes } from './plan-dishes.js';

type App = Pick<
  FastifyInstance,
  'db' | 'bus' | 'reactions' | 'clock' | 'payments' | 'config' | 'log' | 'jurisdictions'
>;

/** How long a placement holds a week it took: one that dies leaves the week to the next run after this. */
export const PLACEMENT_HOLD_MS = 2 * 60_000;

/** The idempotency key of a plan's week's order: a placement run again answers the order it placed. */
export const planOrderKey = (planId: string, slotDate: string) => `plan-${planId}-${slotDate}`;

/** What one run did, by plan and week. */
export interface PlacementOutcome {
  planId: string;
  week: string;
  outcome: 'placed' | 'failed';
  orderId?: string;
  reason?: string;
}

/**
 * Places the plans' weeks whose cut-off has come and whose slot has not started (ADR 26), on every instance, as
 * often as it runs: each week is taken by one insert of its key (plan, local date of its slot) — a second
 * instance, or a run after a clock jump, finds it taken and goes on; a placement that died holding it (its hold ran
 * out) is taken over, and its order's idempotency key (`plan-<plan>-<date>`) answers the order it had placed
 * rather than placing another. The order is placed as a customer's pre-order is (the same function: its slot's
 * places, portions, meal caps, hours and pauses); one that is refused records why on the week and tells the
 * customer (the outbox), and the plan goes on to the next week.
 */
export async function placeDuePlans(app: App): Promise<PlacementOutcome[]> {
  const now = new Date(app.clock.now());
  // A plan cancelled after a week's cut-off still places that week: cancelled within the longest cut-off.
  const rows = await app.db
    .select({
      plan: mealPlans,
      timeZone: kitchens.timeZone,
      planCutoffHours: kitchens.planCutoffHours,
      plansOffered: kitchens.plansOffered,
      cooksChoiceAllowed: kitchens.planCooksChoice,
      kitchenName: kitchens.name,
      email: users.email,
    })
    .from(mealPlans)
    .innerJoin(kitchens, eq(kitchens.ownerId, mealPlans.kitchenId))
    .innerJoin(users, eq(users.id, mealPlans.customerId))
    .where(
      or(
        eq(mealPlans.status, 'active'),
        gt(mealPlans.cancelledAt, new Date(now.getTime() - MAX_CUTOFF_HOURS * 3_600_000)),
      ),
    );
  const outcomes: PlacementOutcome[] = [];
  for (const { plan, email, plansOffered, kitchenName, cooksChoiceAllowed, ...kitchen } of rows) {
    const week = dueWeek(timingOf(plan, kitchen), now);
    if (!week || week.slotDate < plan.startsOn || pausedFor(plan, week.slotDate, week.cutoff)) continue;
    if (plan.cancelledAt !== null && plan.cancelledAt.getTime() <= week.cutoff.getTime()) continue;
    try {
      // A kitchen that stopped offering plans: each week fails, told, until the customer cancels.
      const refusal = plansOffered
        ? undefined
        : new HttpError(
            409,
            PLANS_NOT_OFFERED,
            msg('{name} does not offer weekly plans.'),
            'kitchenUid',
            undefined,
            { name: kitchenName },
          );
      // A card plan whose card is not saved (the customer may have saved it since: the provider is asked).
      const card = plan.paymentMethod === 'card' ? await planCard(app, plan) : null;
      const noCard =
        plan.paymentMethod === 'card' && card === null
          ? new HttpError(
              409,
              PLAN_CARD_FAILED,
              msg('No card is saved for this plan, so this week was not ordered.'),
              'payment',
            )
          : undefined;
      const outcome = await placeWeek(
        app,
        { ...plan, cardPaymentMethodId: card },
        { id: plan.customerId, email },
        week,
        now,
        refusal ?? noCard,
        { name: kitchenName, cooksChoiceAllowed },
      );
      if (outcome) outcomes.push(outcome);
    } catch (error) {
      // Left held: the next run after the hold takes it again (the order's key keeps it one order).
      app.log.warn({ err: error, planId: plan.id, week: week.slotDate }, 'could not place a plan’s week');
    }
  }
  return outcomes;
}

/** Takes the week (or one whose placement died), places its order, and records what came of it. */
async function placeWeek(
  app: App,
  plan: typeof mealPlans.$inferSelect,
  customer: { id: string; email: string },
  week: PlanWeekTime,
  now: Date,
  refusal: HttpError | undefined,
  kitchen: { name: string; cooksChoiceAllowed: boolean },
): Promise<PlacementOutcome | undefined> {
  const heldUntil = new Date(now.getTime() + PLACEMENT_HOLD_MS);
  const [taken] = await app.db
    .insert(mealPlanWeeks)
    .values({ planId: plan.id, slotDate: week.slotDate, state: 'placing', heldUntil, updatedAt: now })
    .onConflictDoUpdate({
      target: [mealPlanWeeks.planId, mealPlanWeeks.slotDate],
      set: { heldUntil, updatedAt: now },
      setWhere: and(eq(mealPlanWeeks.state, 'placing'), lt(mealPlanWeeks.heldUntil, now)),
    })
    .returning({ id: mealPlanWeeks.id });
  if (!taken) return undefined;
  const base = { planId: plan.id, week: week.slotDate };
  try {
    if (refusal) throw refusal;
    // The week's dishes: the cook's choice, the week's own, or the plan's (a gone dish replaced where allowed).
    const itemIds = await weekDishes(
      app.db,
      plan,
      { ...kitchen, currency: app.payments.config.currency },
      week.slotDate,
    );
    const { order } = await placeOrder(
      app,
      customer,
      {
        kitchenUid: plan.kitchenId,
        itemIds,
        fulfilment: plan.fulfilment,
        ...(plan.fulfilment === 'delivery' ? { address: plan.address } : {}),
        ...(plan.location ? { location: plan.location } : {}),
        slotStart: week.slotStart.toISOString(),
        note: plan.note,
        allergensAcknowledged: plan.allergensAcknowledged,
        payment: plan.paymentMethod,
        idempotencyKey: planOrderKey(plan.id, week.slotDate),
      },
      translator(),
      { offSession: plan.paymentMethod === 'card' },
    );
    // A card plan's week is charged to its saved card now (a refusal of the card fails the week, thrown).
    const charged =
      plan.paymentMethod === 'card' ? await chargePlanWeek(app, plan, week.slotDate, order) : undefined;
    await mutate(app, async (tx, record) => {
      const [placed] = await tx
        .update(mealPlanWeeks)
        .set({ state: 'placed', orderId: order.id, heldUntil: null, updatedAt: now })
        .where(and(eq(mealPlanWeeks.id, taken.id), eq(mealPlanWeeks.state, 'placing')))
        .returning({ id: mealPlanWeeks.id });
      // The card needs its holder: told at once, with the week's payment page (one notice per plan and week).
      if (placed && charged === 'needs-customer')
        record({
          type: 'plan.card-needs-you',
          planId: plan.id,
          week: week.slotDate,
          orderId: order.id,
          customerId: customer.id,
          kitchenUid: plan.kitchenId,
        });
    });
    return { ...base, outcome: 'placed', orderId: order.id };
  } catch (error) {
    // A refusal of the order (the kitchen paused, a dish gone, its slot full, a cap reached): the week fails with
    // its reason. Anything else (the database away) leaves it held, to be taken again.
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    const reason = error.message;
    await mutate(app, async (tx, record) => {
      const [failed] = await tx
        .update(mealPlanWeeks)
        .set({
          state: 'failed',
          heldUntil: null,
          reasonCode: error.code || PLAN_PLACEMENT_FAILED,
          reason,
          reasonValues: (error.values ?? null) as Record<string, string | number> | null,
          updatedAt: now,
        })
        .where(and(eq(mealPlanWeeks.id, taken.id), eq(mealPlanWeeks.state, 'placing')))
        .returning({ id: mealPlanWeeks.id });
      if (failed)
        record({
          type: 'plan.week-failed',
          planId: plan.id,
          weekId: failed.id,
          customerId: customer.id,
          kitchenUid: plan.kitchenId,
        });
    });
    return { ...base, outcome: 'failed', reason };
  }
}

/** How long before a week's cut-off its customer is reminded (the issue: the day before). */
export const REMINDER_BEFORE_MS = 24 * 3_600_000;

/**
 * Reminds each active plan's customer of the week whose cut-off comes within a day (email and push, through the
 * outbox: its dishes, and 'Skip this week'), unless that week is skipped, paused or before the plan starts. The
 * notice's key (plan, week) makes it one reminder however many runs and instances find it.
 */
export async function remindPlans(app: App): Promise<{ planId: string; week: string }[]> {
  const now = new Date(app.clock.now());
  const rows = await app.db
    .select({ plan: mealPlans, timeZone: kitchens.timeZone, planCutoffHours: kitchens.planCutoffHours })
    .from(mealPlans)
    .innerJoin(kitchens, eq(kitchens.ownerId, mealPlans.kitchenId))
    .where(and(eq(mealPlans.status, 'active'), eq(kitchens.plansOffered, true)));
  const reminded: { planId: string; week: string }[] = [];
  for (const { plan, ...kitchen } of rows) {
    const [week] = upcomingWeeks(timingOf(plan, kitchen), now, 1);
    if (!week || week.slotDate < plan.startsOn || pausedFor(plan, week.slotDate, week.cutoff)) continue;
    const left = week.cutoff.getTime() - now.getTime();
    if (left <= 0 || left > REMINDER_BEFORE_MS) continue;
    const [taken] = await app.db
      .select({ state: mealPlanWeeks.state })
      .from(mealPlanWeeks)
      .where(and(eq(mealPlanWeeks.planId, plan.id), eq(mealPlanWeeks.slotDate, week.slotDate)));
    if (taken) continue;
    await mutate(app, async (_tx, record) =>
      record({
        type: 'plan.reminder',
        planId: plan.id,
        week: week.slotDate,
        customerId: plan.customerId,
        kitchenUid: plan.kitchenId,
      }),
    );
    reminded.push({ planId: plan.id, week: week.slotDate });
  }
  return reminded;
}

/** The placement, every `PLAN_POLL_SECONDS` on every instance (a week's key makes it placed once). */
export function registerPlanPlacement(app: FastifyInstance): void {
  const seconds = app.config.planPollSeconds;
  if (seconds === 0) return;
  registerPeriodicTask(app, {
    everyMs: seconds * 1000,
    atStart: true,
    failure: 'the weekly plans’ placement failed; it runs again',
    run: async () => {
      await placeDuePlans(app);
      await remindPlans(app);
    },
  });
}
