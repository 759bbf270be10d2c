import { and, desc, eq, gte, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { msg, translator, type Translator } from '../../shared/i18n/translator.js';
import { formatOpening, localTime } from '../../shared/opening-hours.js';
import { SLOT_UNAVAILABLE } from '../../shared/ordering.js';
import { randomUUID } from 'node:crypto';
import { PAYMENT_PROVIDER_DOWN } from '../../shared/payments.js';
import { parsePriceToCents } from '../../shared/money.js';
import {
  COOKS_CHOICE_NOT_ALLOWED,
  PLAN_CUTOFF_PASSED,
  PLANS_NOT_OFFERED,
  planWeekAt,
  planWeekday,
  upcomingWeeks,
  type CustomerPlan,
  type KitchenPlans,
  type OperatorPlacements,
  type PlacementRow,
  type PlanChange,
  type PlannedSlot,
  type PlanSettings,
  type PlanInput,
  type PlanLine,
  type PlanTiming,
  type PlanWeek,
} from '../../shared/plans.js';
import {
  kitchens,
  mealPlans,
  mealPlanWeekDishes,
  mealPlanWeeks,
  menuItems,
  orderItems,
  orders,
} from '../db/schema.js';
import { mutate } from '../events/mutate.js';
import { badRequest, conflict, HttpError, notFound } from '../lib/errors.js';
import { findKitchenAndItems } from './customer-order-queries.js';
import { refuseOutsideDeliveryArea } from './delivery-area.js';
import { findSlot } from '../../shared/slots.js';
import { openPlanCardPage, planCard, startPlanCard } from './plan-cards.js';
import { paymentMethodOf } from './place-order.js';

type App = Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'clock' | 'payments' | 'config' | 'log'>;

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const noSuchPlan = () => notFound(msg('You have no plan with this id'));

/** 409 naming `week`: its cut-off has passed, named in the kitchen's time ('Tue 6:00 PM'). */
export const cutoffPassed = (cutoff: Date, timeZone: string, tr: Translator) =>
  new HttpError(
    409,
    PLAN_CUTOFF_PASSED,
    msg('Changes to this week closed at its cut-off, {when}.'),
    'week',
    undefined,
    { when: formatOpening(cutoff, timeZone, tr) },
  );

/**
 * 'Every week' for a pre-order: a plan at a kitchen that offers them, on the day and time of one of its slots (as a
 * pre-order may choose now), with the same dishes every week, from the week after that slot's. The first week is
 * the pre-order the customer places for that slot; the plan repeats it. Paid as an order is: a card plan opens the
 * provider's page on which its card is saved once (its status 'waiting-for-card' until then), and each week is
 * charged to it without the customer at the cut-off; or cash on delivery.
 */
export async function createPlan(
  app: App,
  customer: { id: string },
  input: PlanInput,
  tr: Translator = translator(),
  /** The slot of a pre-order the customer placed: checked when it was placed, it need not be choosable now. */
  placedSlot?: { start: Date; date: string },
): Promise<CustomerPlan> {
  const menu = await findKitchenAndItems(app.db, input.kitchenUid, input.itemIds);
  if (!menu) throw badRequest('This kitchen does not exist', 'kitchenUid');
  const { kitchen } = menu;
  const [settings] = await app.db
    .select({ offered: kitchens.plansOffered, cutoffHours: kitchens.planCutoffHours })
    .from(kitchens)
    .where(eq(kitchens.ownerId, kitchen.uid));
  if (!settings?.offered || kitchen.suspended || kitchen.listing !== 'listed')
    throw new HttpError(
      409,
      PLANS_NOT_OFFERED,
      msg('{name} does not offer weekly plans.'),
      'kitchenUid',
      undefined,
      { name: kitchen.name },
    );
  const found = new Set(menu.items.map((item) => item.id));
  if (input.itemIds.some((id) => !found.has(id)))
    throw badRequest("Some items are not on this kitchen's menu (any more)", 'itemIds');
  const fulfilment = input.fulfilment ?? 'delivery';
  if (fulfilment === 'delivery') refuseOutsideDeliveryArea(kitchen, input.location, tr);
  const now = new Date(app.clock.now());
  const slot = placedSlot
    ? { start: placedSlot.start.toISOString(), date: placedSlot.date }
    : findSlot(kitchen, now, input.slotStart);
  if (!slot)
    throw new HttpError(
      409,
      SLOT_UNAVAILABLE,
      msg('This time can no longer be chosen. Please choose another time.'),
      'slotStart',
    );
  // Paid as an order there is: by card (saved once, charged each week without the customer) or cash on delivery.
  const payment = paymentMethodOf(app, kitchen, input.payment);
  const local = localTime(new Date(slot.start), kitchen.timeZone);
  // A card plan's page on which its card is saved, opened before the plan is written: a provider that does not
  // answer leaves nothing behind (the customer tries again), and the page's key is the plan's id.
  const planId = randomUUID();
  const card = payment === 'card' ? await openCardPage(app, customer, planId) : null;
  const plan = await mutate(app, async (tx, record) => {
    const [row] = await tx
      .insert(mealPlans)
      .values({
        id: planId,
        customerId: customer.id,
        kitchenId: kitchen.uid,
        weekday: local.weekday,
        slotTime: hhmm(local.minutes),
        itemIds: input.itemIds,
        fulfilment,
        address: fulfilment === 'delivery' ? (input.address ?? '') : '',
        location: input.location ?? null,
        note: input.note ?? '',
        allergensAcknowledged: input.allergensAcknowledged ?? [],
        paymentMethod: payment,
        cardSetupSessionId: card?.sessionId ?? null,
        cardSetupUrl: card?.url ?? null,
        startsOn: addDays(slot.date, 7),
        // What the customer spends on dishes each week: these dishes at today's prices.
        budgetCents: priceOf(input.itemIds, menu.items),
      })
      .returning({ id: mealPlans.id });
    if (!row) throw new Error('plan not inserted');
    record({ type: 'plan.changed', planId: row.id, customerId: customer.id, kitchenUid: kitchen.uid });
    return row;
  });
  const [made] = await customerPlans(app, customer.id, plan.id, tr);
  if (!made) throw new Error('plan not found after insert');
  return made;
}

type PlanRow = typeof mealPlans.$inferSelect;

/** What these dishes (one id per portion) cost at the menu's prices, in minor units. */
const priceOf = (itemIds: readonly string[], menu: readonly { id: string; priceCents: number }[]) =>
  itemIds.reduce((sum, id) => sum + (menu.find((dish) => dish.id === id)?.priceCents ?? 0), 0);

/** The card-saving page of a new card plan; 503 when the provider does not answer (nothing is written). */
async function openCardPage(app: App, customer: { id: string }, planId: string) {
  try {
    return await startPlanCard(app, customer, planId);
  } catch (error) {
    app.log.warn({ err: error, planId }, 'could not open a card-saving page');
    throw new HttpError(
      503,
      PAYMENT_PROVIDER_DOWN,
      msg('The payment service did not answer. Nothing was charged: please try again.'),
    );
  }
}

/** A plan's timing: its weekday and time, in its kitchen's zone, with the kitchen's cut-off. */
export const timingOf = (
  plan: Pick<PlanRow, 'weekday' | 'slotTime'>,
  kitchen: { timeZone: string; planCutoffHours: number },
): PlanTiming => ({
  weekday: plan.weekday,
  slotTime: plan.slotTime,
  timeZone: kitchen.timeZone,
  cutoffHours: kitchen.planCutoffHours,
});

/** A card plan whose card is not saved yet: no week of it is charged. */
export const waitingForCard = (plan: Pick<PlanRow, 'paymentMethod' | 'cardPaymentMethodId'>) =>
  plan.paymentMethod === 'card' && plan.cardPaymentMethodId === null;

/** Whether a plan's pause covers the week on `slotDate` whose cut-off is `cutoff` (set before that cut-off). */
export const pausedFor = (
  plan: Pick<PlanRow, 'pausedUntil' | 'pausedAt'>,
  slotDate: string,
  cutoff: Date,
): boolean =>
  plan.pausedUntil !== null &&
  slotDate < plan.pausedUntil &&
  plan.pausedAt !== null &&
  plan.pausedAt.getTime() <= cutoff.getTime();

/** 'Your plans': the customer's plans (or one of them), newest first, each with its next four weeks. */
export async function customerPlans(
  app: Pick<FastifyInstance, 'db' | 'clock' | 'payments' | 'config' | 'log'>,
  customerId: string,
  planId?: string,
  tr: Translator = translator(),
): Promise<CustomerPlan[]> {
  const rows = await app.db
    .select({
      plan: mealPlans,
      kitchenName: kitchens.name,
      timeZone: kitchens.timeZone,
      planCutoffHours: kitchens.planCutoffHours,
    })
    .from(mealPlans)
    .innerJoin(kitchens, eq(kitchens.ownerId, mealPlans.kitchenId))
    .where(
      and(eq(mealPlans.customerId, customerId), planId === undefined ? undefined : eq(mealPlans.id, planId)),
    )
    .orderBy(desc(mealPlans.createdAt))
    .limit(50);
  if (!rows.length) return [];
  // A card plan waiting for its card: the customer may be back from saving it (the provider is asked).
  for (const row of rows)
    if (
      row.plan.paymentMethod === 'card' &&
      (!row.plan.cardPaymentMethodId || row.plan.cardSetupUrl) &&
      row.plan.status === 'active'
    ) {
      const card = await planCard(app, row.plan);
      // A card learnt from the page just now: the page is done with.
      if (card !== row.plan.cardPaymentMethodId)
        row.plan = { ...row.plan, cardPaymentMethodId: card, cardSetupUrl: null };
    }
  const ids = rows.map((row) => row.plan.id);
  const weekDishes = await app.db
    .select()
    .from(mealPlanWeekDishes)
    .where(inArray(mealPlanWeekDishes.planId, ids));
  const dishIds = [
    ...new Set([...rows.flatMap((row) => row.plan.itemIds), ...weekDishes.flatMap((week) => week.itemIds)]),
  ];
  const dishes = new Map(
    (
      await app.db
        .select({ id: menuItems.id, item: menuItems.item, priceCents: menuItems.priceCents })
        .from(menuItems)
        .where(inArray(menuItems.id, dishIds))
    ).map((dish) => [dish.id, dish]),
  );
  const weekRows = await app.db
    .select()
    .from(mealPlanWeeks)
    .where(inArray(mealPlanWeeks.planId, ids))
    .orderBy(desc(mealPlanWeeks.slotDate));
  const now = new Date(app.clock.now());
  return rows.map(({ plan, kitchenName, timeZone, planCutoffHours }) => {
    const timing = timingOf(plan, { timeZone, planCutoffHours });
    const recorded = new Map(
      weekRows.filter((week) => week.planId === plan.id).map((week) => [week.slotDate, week]),
    );
    const linesOf = (itemIds: string[]) => {
      const counts = new Map<string, PlanLine>();
      for (const id of itemIds) {
        const dish = dishes.get(id);
        const key = dish?.id ?? 'gone';
        const line = counts.get(key);
        if (line) line.quantity++;
        else
          counts.set(key, {
            itemId: dish?.id ?? null,
            item: dish?.item ?? tr.t('A dish no longer on the menu'),
            quantity: 1,
            priceCents: dish?.priceCents ?? 0,
          });
      }
      return [...counts.values()];
    };
    const changedWeeks = new Map(
      weekDishes.filter((week) => week.planId === plan.id).map((week) => [week.slotDate, week.itemIds]),
    );
    const weekOf = (slotDate: string): PlanWeek => {
      const time = planWeekAt(timing, slotDate);
      const row = recorded.get(slotDate);
      const own = changedWeeks.get(slotDate);
      return {
        items: own ? linesOf(own) : null,
        week: slotDate,
        slotStart: time.slotStart.toISOString(),
        cutoff: time.cutoff.toISOString(),
        state: row?.state ?? (pausedFor(plan, slotDate, time.cutoff) ? 'paused' : 'planned'),
        orderId: row?.orderId ?? null,
        reason: row?.reason ? tr.t(row.reason, row.reasonValues ?? {}) : null,
      };
    };
    const upcoming =
      plan.status === 'cancelled'
        ? []
        : upcomingWeeks(timing, now, 6)
            .filter((week) => week.slotDate >= plan.startsOn)
            .slice(0, 4)
            .map((week) => weekOf(week.slotDate));
    const lastFailed = [...recorded.values()].find(
      (week) => week.state === 'failed' && !upcoming.some((w) => w.week === week.slotDate),
    );
    const paused = plan.pausedUntil !== null && plan.pausedUntil > localTime(now, timeZone).date;
    return {
      id: plan.id,
      kitchenUid: plan.kitchenId,
      kitchenName,
      timeZone,
      weekday: plan.weekday,
      slotTime: plan.slotTime,
      fulfilment: plan.fulfilment,
      payment: plan.paymentMethod,
      items: linesOf(plan.itemIds),
      status:
        plan.status === 'cancelled'
          ? 'cancelled'
          : waitingForCard(plan)
            ? 'waiting-for-card'
            : paused
              ? 'paused'
              : 'active',
      // A page open to save a card: the first, or a new one replacing the card ('Change card').
      cardSetupUrl: plan.status === 'active' ? plan.cardSetupUrl : null,
      hasCard: plan.cardPaymentMethodId !== null,
      pausedUntil: paused ? plan.pausedUntil : null,
      cooksChoice: plan.cooksChoice,
      budgetCents: plan.budgetCents,
      weeks: lastFailed ? [weekOf(lastFailed.slotDate), ...upcoming] : upcoming,
    };
  });
}

/**
 * A customer's change to their plan: skip a week (or take the skip back), pause until a date, resume, cancel. A
 * week's change is refused once its cut-off has passed (409 naming `week` and the cut-off); a pause or a cancel
 * reaches only the weeks whose cut-off is still ahead (a week past it is placed all the same).
 */
export async function changePlan(
  app: App,
  customerId: string,
  planId: string,
  change: PlanChange,
  tr: Translator = translator(),
): Promise<CustomerPlan> {
  const [found] = await app.db
    .select({
      plan: mealPlans,
      timeZone: kitchens.timeZone,
      planCutoffHours: kitchens.planCutoffHours,
      cooksChoiceAllowed: kitchens.planCooksChoice,
    })
    .from(mealPlans)
    .innerJoin(kitchens, eq(kitchens.ownerId, mealPlans.kitchenId))
    .where(and(eq(mealPlans.id, planId), eq(mealPlans.customerId, customerId)));
  if (!found) throw noSuchPlan();
  const { plan, timeZone } = found;
  if (plan.status === 'cancelled') throw conflict(msg('This plan is cancelled.'));
  if (change.action === 'card') {
    // The provider's page, outside any transaction: nothing is written if it does not answer.
    try {
      await openPlanCardPage(app, { id: customerId }, plan);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      app.log.warn({ err: error, planId }, 'could not open a card-saving page');
      throw new HttpError(
        503,
        PAYMENT_PROVIDER_DOWN,
        msg('The payment service did not answer. Nothing was charged: please try again.'),
      );
    }
    const [plans] = await customerPlans(app, customerId, planId, tr);
    if (!plans) throw noSuchPlan();
    return plans;
  }
  const now = new Date(app.clock.now());
  const timing = timingOf(plan, found);
  const weekTime = (week: string) => {
    if (planWeekday(week) !== plan.weekday || week < plan.startsOn)
      throw badRequest('This plan has no order that week', 'week');
    const time = planWeekAt(timing, week);
    if (time.cutoff.getTime() <= now.getTime()) throw cutoffPassed(time.cutoff, timeZone, tr);
    return time;
  };
  await mutate(app, async (tx, record) => {
    const changed = () => record({ type: 'plan.changed', planId, customerId, kitchenUid: plan.kitchenId });
    if (change.action === 'skip') {
      const time = weekTime(change.week);
      // The week's key decides against a placement that began at its cut-off meanwhile.
      const [skipped] = await tx
        .insert(mealPlanWeeks)
        .values({ planId, slotDate: change.week, state: 'skipped' })
        .onConflictDoNothing()
        .returning({ state: mealPlanWeeks.state });
      if (!skipped) {
        const [row] = await tx
          .select({ state: mealPlanWeeks.state })
          .from(mealPlanWeeks)
          .where(and(eq(mealPlanWeeks.planId, planId), eq(mealPlanWeeks.slotDate, change.week)));
        if (row?.state !== 'skipped') throw cutoffPassed(time.cutoff, timeZone, tr);
      }
    } else if (change.action === 'unskip') {
      weekTime(change.week);
      await tx
        .delete(mealPlanWeeks)
        .where(
          and(
            eq(mealPlanWeeks.planId, planId),
            eq(mealPlanWeeks.slotDate, change.week),
            eq(mealPlanWeeks.state, 'skipped'),
          ),
        );
    } else if (change.action === 'dishes') {
      // Dishes of this kitchen's menu, as a new plan's are.
      const menu = await findKitchenAndItems(tx, plan.kitchenId, change.itemIds);
      const found = new Set(menu?.items.map((item) => item.id));
      if (!menu || change.itemIds.some((id) => !found.has(id)))
        throw badRequest("Some items are not on this kitchen's menu (any more)", 'itemIds');
      if (change.week) {
        const time = weekTime(change.week);
        // The week's key decides against a placement that took it meanwhile (another instance's clock).
        const [taken] = await tx
          .select({ state: mealPlanWeeks.state })
          .from(mealPlanWeeks)
          .where(and(eq(mealPlanWeeks.planId, planId), eq(mealPlanWeeks.slotDate, change.week)));
        if (taken && taken.state !== 'skipped') throw cutoffPassed(time.cutoff, timeZone, tr);
        await tx
          .insert(mealPlanWeekDishes)
          .values({ planId, slotDate: change.week, itemIds: change.itemIds, updatedAt: now })
          .onConflictDoUpdate({
            target: [mealPlanWeekDishes.planId, mealPlanWeekDishes.slotDate],
            set: { itemIds: change.itemIds, updatedAt: now },
          });
      } else {
        // For good: every week placed from now on; a week already placed keeps its order, and a week changed on
        // its own keeps its own dishes.
        await tx
          .update(mealPlans)
          .set({
            itemIds: change.itemIds,
            budgetCents: priceOf(change.itemIds, menu.items),
            cooksChoice: false,
            updatedAt: now,
          })
          .where(eq(mealPlans.id, planId));
      }
    } else if (change.action === 'cooks-choice') {
      // 'Let the cook choose' within a budget, where the kitchen allows it: from the next week placed.
      if (!found.cooksChoiceAllowed)
        throw new HttpError(
          409,
          COOKS_CHOICE_NOT_ALLOWED,
          msg("This kitchen does not offer the cook's choice."),
          'budget',
        );
      const budgetCents = parsePriceToCents(change.budget, app.payments.config.currency);
      if (budgetCents === null || budgetCents <= 0)
        throw badRequest('Budget must be an amount like 25.00', 'budget');
      await tx
        .update(mealPlans)
        .set({ cooksChoice: true, budgetCents, updatedAt: now })
        .where(eq(mealPlans.id, planId));
    } else if (change.action === 'pause') {
      if (change.until <= localTime(now, timeZone).date)
        throw badRequest('Pause until a day after today', 'until');
      await tx
        .update(mealPlans)
        .set({ pausedUntil: change.until, pausedAt: now, updatedAt: now })
        .where(eq(mealPlans.id, planId));
    } else if (change.action === 'resume') {
      await tx
        .update(mealPlans)
        .set({ pausedUntil: null, pausedAt: null, updatedAt: now })
        .where(eq(mealPlans.id, planId));
    } else {
      await tx
        .update(mealPlans)
        .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
        .where(eq(mealPlans.id, planId));
    }
    changed();
  });
  const [plans] = await customerPlans(app, customerId, planId, tr);
  if (!plans) throw noSuchPlan();
  return plans;
}

/**
 * The cook's 'Plans': their settings, and the next four weeks' slots with planned orders (active plans' weeks not
 * skipped nor paused, and those placed or failed), each with its meals and the dishes to cook, soonest first.
 */
export async function kitchenPlans(
  app: Pick<FastifyInstance, 'db' | 'clock'>,
  kitchenUid: string,
): Promise<KitchenPlans> {
  const [kitchen] = await app.db
    .select({
      offered: kitchens.plansOffered,
      cutoffHours: kitchens.planCutoffHours,
      cooksChoice: kitchens.planCooksChoice,
      timeZone: kitchens.timeZone,
    })
    .from(kitchens)
    .where(eq(kitchens.ownerId, kitchenUid));
  if (!kitchen) throw notFound();
  const plans = await app.db
    .select()
    .from(mealPlans)
    .where(and(eq(mealPlans.kitchenId, kitchenUid), eq(mealPlans.status, 'active')));
  const settings = {
    offered: kitchen.offered,
    cutoffHours: kitchen.cutoffHours,
    cooksChoice: kitchen.cooksChoice,
  };
  if (!plans.length) return { settings, slots: [] };
  const dishes = new Map(
    (
      await app.db
        .select({ id: menuItems.id, item: menuItems.item })
        .from(menuItems)
        .where(eq(menuItems.kitchenId, kitchenUid))
    ).map((dish) => [dish.id, dish.item]),
  );
  const weekRows = await app.db
    .select({ planId: mealPlanWeeks.planId, slotDate: mealPlanWeeks.slotDate, state: mealPlanWeeks.state })
    .from(mealPlanWeeks)
    .where(
      inArray(
        mealPlanWeeks.planId,
        plans.map((plan) => plan.id),
      ),
    );
  const stateOf = new Map(weekRows.map((row) => [`${row.planId} ${row.slotDate}`, row.state]));
  // Weeks whose dishes their customer changed for that week only: the cook cooks those.
  const ownDishes = new Map(
    (
      await app.db
        .select()
        .from(mealPlanWeekDishes)
        .where(
          inArray(
            mealPlanWeekDishes.planId,
            plans.map((plan) => plan.id),
          ),
        )
    ).map((row) => [`${row.planId} ${row.slotDate}`, row.itemIds]),
  );
  const now = new Date(app.clock.now());
  const slots = new Map<string, PlannedSlot & { counts: Map<string, number> }>();
  for (const plan of plans) {
    const timing = timingOf(plan, { timeZone: kitchen.timeZone, planCutoffHours: kitchen.cutoffHours });
    for (const week of upcomingWeeks(timing, now, 6)
      .filter((w) => w.slotDate >= plan.startsOn)
      .slice(0, 4)) {
      const state = stateOf.get(`${plan.id} ${week.slotDate}`);
      if (state === 'skipped' || (state === undefined && pausedFor(plan, week.slotDate, week.cutoff)))
        continue;
      const key = week.slotStart.toISOString();
      let slot = slots.get(key);
      if (!slot) {
        slot = {
          week: week.slotDate,
          slotStart: key,
          cutoff: week.cutoff.toISOString(),
          orders: 0,
          meals: 0,
          dishes: [],
          placed: 0,
          failed: 0,
          counts: new Map(),
        };
        slots.set(key, slot);
      }
      slot.orders++;
      if (state === 'placed') slot.placed++;
      if (state === 'failed') slot.failed++;
      for (const id of ownDishes.get(`${plan.id} ${week.slotDate}`) ?? plan.itemIds) {
        slot.meals++;
        const item = dishes.get(id) ?? translator().t('A dish no longer on the menu');
        slot.counts.set(item, (slot.counts.get(item) ?? 0) + 1);
      }
    }
  }
  return {
    settings,
    slots: [...slots.values()]
      .sort((a, b) => a.slotStart.localeCompare(b.slotStart))
      .map(({ counts, ...slot }) => ({
        ...slot,
        dishes: [...counts].map(([item, quantity]) => ({ item, quantity })),
      })),
  };
}

/** 'Offer weekly plans' and its cut-off: saved for the weeks whose cut-off is still to come. */
export async function savePlanSettings(
  app: App,
  kitchenUid: string,
  settings: PlanSettings,
): Promise<PlanSettings> {
  return mutate(app, async (tx, record) => {
    const [row] = await tx
      .update(kitchens)
      .set({
        plansOffered: settings.offered,
        planCutoffHours: settings.cutoffHours,
        ...(settings.cooksChoice === undefined ? {} : { planCooksChoice: settings.cooksChoice }),
      })
      .where(eq(kitchens.ownerId, kitchenUid))
      .returning({
        offered: kitchens.plansOffered,
        cutoffHours: kitchens.planCutoffHours,
        cooksChoice: kitchens.planCooksChoice,
      });
    if (!row) throw notFound();
    record({ type: 'plan.changed', planId: null, customerId: null, kitchenUid });
    return row;
  });
}

/**
 * 'Every week' for a pre-order the customer placed: a plan of its kitchen, day, slot, dishes, fulfilment, address and
 * note, from the week after it (404 for an order not theirs; 409 naming `orderId` for one that is not a pre-order).
 */
export async function planFromOrder(
  app: App,
  customer: { id: string },
  orderId: string,
  tr: Translator = translator(),
): Promise<CustomerPlan> {
  const [order] = await app.db
    .select({
      kitchenId: orders.kitchenId,
      slotStart: orders.slotStart,
      fulfilment: orders.fulfilment,
      address: orders.address,
      note: orders.note,
      payment: orders.paymentMethod,
      allergensAcknowledged: orders.allergensAcknowledged,
      portionsDay: orders.portionsDay,
      timeZone: kitchens.timeZone,
    })
    .from(orders)
    .leftJoin(kitchens, eq(kitchens.ownerId, orders.kitchenId))
    .where(and(eq(orders.id, orderId), eq(orders.customerId, customer.id)));
  if (!order) throw notFound(msg('You have no order with this id'));
  if (order.kitchenId === null || order.slotStart === null || order.timeZone === null)
    throw conflict(msg('Only an order for a later time can be repeated every week.'), 'orderId');
  const lines = await app.db
    .select({ id: orderItems.menuItemId })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.position);
  const itemIds = lines.map((line) => line.id);
  if (!itemIds.length || itemIds.some((id) => id === null))
    throw conflict("Some items are not on this kitchen's menu (any more)", 'orderId');
  return createPlan(
    app,
    customer,
    {
      kitchenUid: order.kitchenId,
      itemIds: itemIds as string[],
      fulfilment: order.fulfilment,
      ...(order.fulfilment === 'delivery' ? { address: order.address } : {}),
      note: order.note,
      allergensAcknowledged: order.allergensAcknowledged as PlanInput['allergensAcknowledged'],
      payment: order.payment,
      slotStart: order.slotStart.toISOString(),
    },
    tr,
    { start: order.slotStart, date: localTime(order.slotStart, order.timeZone).date },
  );
}

/** Whether a kitchen offers weekly plans, and its cut-off: public, as its menu is. */
export async function planOffer(
  app: Pick<FastifyInstance, 'db'>,
  kitchenUid: string,
): Promise<PlanSettings | undefined> {
  const [row] = await app.db
    .select({
      offered: kitchens.plansOffered,
      cutoffHours: kitchens.planCutoffHours,
      cooksChoice: kitchens.planCooksChoice,
    })
    .from(kitchens)
    .where(eq(kitchens.ownerId, kitchenUid));
  return row;
}

/**
 * The operator's 'Plans': every active plan's week whose cut-off comes within 24 hours, and any whose cut-off has
 * passed unplaced (overdue: the job is late, or a placement is holding it), soonest first; and the weeks that failed
 * in the last 7 days with why, newest first.
 */
export async function operatorPlacements(
  app: Pick<FastifyInstance, 'db' | 'clock'>,
  tr: Translator = translator(),
): Promise<OperatorPlacements> {
  const now = new Date(app.clock.now());
  const soon = now.getTime() + DAY_MS;
  const plans = await app.db
    .select({
      plan: mealPlans,
      kitchenName: kitchens.name,
      timeZone: kitchens.timeZone,
      planCutoffHours: kitchens.planCutoffHours,
    })
    .from(mealPlans)
    .innerJoin(kitchens, eq(kitchens.ownerId, mealPlans.kitchenId))
    .where(eq(mealPlans.status, 'active'));
  const decided = plans.length
    ? await app.db
        .select({
          planId: mealPlanWeeks.planId,
          slotDate: mealPlanWeeks.slotDate,
          state: mealPlanWeeks.state,
        })
        .from(mealPlanWeeks)
        .where(
          inArray(
            mealPlanWeeks.planId,
            plans.map((row) => row.plan.id),
          ),
        )
    : [];
  const stateOf = new Map(decided.map((row) => [`${row.planId} ${row.slotDate}`, row.state]));
  const due: PlacementRow[] = [];
  for (const { plan, kitchenName, ...kitchen } of plans) {
    for (const week of upcomingWeeks(timingOf(plan, kitchen), now, 2)) {
      const state = stateOf.get(`${plan.id} ${week.slotDate}`);
      if (week.slotDate < plan.startsOn || week.cutoff.getTime() >= soon) continue;
      if ((state !== undefined && state !== 'placing') || pausedFor(plan, week.slotDate, week.cutoff))
        continue;
      due.push({
        planId: plan.id,
        kitchenName,
        week: week.slotDate,
        slotStart: week.slotStart.toISOString(),
        cutoff: week.cutoff.toISOString(),
        overdue: week.cutoff.getTime() <= now.getTime(),
        reason: null,
      });
    }
  }
  const failedRows = await app.db
    .select({
      week: mealPlanWeeks,
      plan: mealPlans,
      kitchenName: kitchens.name,
      timeZone: kitchens.timeZone,
      planCutoffHours: kitchens.planCutoffHours,
    })
    .from(mealPlanWeeks)
    .innerJoin(mealPlans, eq(mealPlans.id, mealPlanWeeks.planId))
    .innerJoin(kitchens, eq(kitchens.ownerId, mealPlans.kitchenId))
    .where(
      and(
        eq(mealPlanWeeks.state, 'failed'),
        gte(mealPlanWeeks.updatedAt, new Date(now.getTime() - 7 * DAY_MS)),
      ),
    )
    .orderBy(desc(mealPlanWeeks.updatedAt))
    .limit(100);
  const failed = failedRows.map(({ week, plan, kitchenName, ...kitchen }) => {
    const time = planWeekAt(timingOf(plan, kitchen), week.slotDate);
    return {
      planId: plan.id,
      kitchenName,
      week: week.slotDate,
      slotStart: time.slotStart.toISOString(),
      cutoff: time.cutoff.toISOString(),
      overdue: false,
      reason: week.reason ? tr.t(week.reason, week.reasonValues ?? {}) : null,
    };
  });
  return { due: due.sort((a, b) => a.cutoff.localeCompare(b.cutoff)), failed };
}
