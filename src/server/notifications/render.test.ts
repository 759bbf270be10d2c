import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { NOTICE_AUDIENCE, NOTICE_KINDS, type NoticeKind } from '../../shared/notifications.js';
import { slotLabel } from '../../shared/slots.js';
import {
  kitchenDocuments,
  kitchens,
  ledgerEntries,
  mealPlans,
  mealPlanWeeks,
  orders,
  reports,
  reviews,
} from '../db/schema.js';
import { buildKitchen, buildOrder } from '../test/builders.js';
import { buildUser, describeEachEngine, type TestContext } from '../test/test-app.js';
import type { RenderedNotice } from './channels.js';
import { itemsText, renderNotice } from './render.js';

const PUBLIC_URL = 'https://homecooked.example';
/** 10:00 UTC: 3:30 PM in Kolkata, the test kitchen's time zone. */
const NOW = new Date('2030-01-15T10:00:00Z');
const TZ = 'Asia/Kolkata';

const SCRIPT = '<script>alert(1)</script>';
const IMG = '"><img src=x onerror=alert(2)>';

type OrderPatch = Partial<typeof orders.$inferInsert>;

/**
 * A kitchen in Kolkata and a customer's order there of Dal × 2 and Rice ($32.45 with the fees), changed by `patch`;
 * the lines, the kitchen's name and the customer's email as given.
 */
async function orderWorld(
  ctx: TestContext,
  options: {
    patch?: OrderPatch;
    lines?: { item: string; priceCents: number }[];
    kitchenName?: string;
    customerEmail?: string;
  } = {},
) {
  const cook = await buildKitchen(ctx, {
    name: options.kitchenName ?? `Ana's Kitchen ${randomUUID().slice(0, 4)}`,
  });
  await ctx.database.db
    .update(kitchens)
    .set({ timeZone: TZ, pickupAddress: '12 Pickup Lane', pickupInstructions: 'Ring twice' })
    .where(eq(kitchens.ownerId, cook.kitchen.uid));
  const customer = await buildUser(ctx, options.customerEmail ? { email: options.customerEmail } : {});
  const row = await buildOrder(
    ctx,
    cook.kitchen,
    customer,
    options.lines ?? [
      { item: 'Dal', priceCents: 950 },
      { item: 'Rice', priceCents: 300 },
      { item: 'Dal', priceCents: 950 },
    ],
  );
  if (options.patch) await ctx.database.db.update(orders).set(options.patch).where(eq(orders.id, row.id));
  return { cook, customer, order: row, kitchenName: cook.kitchen.name };
}

type World = Awaited<ReturnType<typeof orderWorld>>;

/** The notice of `kind` about the world's order (or review, or kitchen) to whom it is for. */
function render(ctx: TestContext, w: World, kind: NoticeKind, subjectId?: string) {
  const recipientId = NOTICE_AUDIENCE[kind] === 'kitchen' ? w.cook.user.id : w.customer.id;
  const subject =
    subjectId ?? (kind === 'reports' ? w.cook.kitchen.uid : kind === 'review-new' ? undefined : w.order.id);
  if (!subject) throw new Error('a review notice needs its review');
  // In English, as the app's catalogues have it.
  return renderNotice(
    ctx.database.db,
    { kind, subjectId: subject, recipientId },
    PUBLIC_URL,
    NOW,
    ctx.app.i18n.translator('en'),
  );
}

async function addReview(ctx: TestContext, w: World, stars: number, text: string) {
  const [review] = await ctx.database.db
    .insert(reviews)
    .values({ orderId: w.order.id, kitchenId: w.cook.kitchen.uid, customerId: w.customer.id, stars, text })
    .returning();
  if (!review) throw new Error('no review');
  return review;
}

async function addReport(ctx: TestContext, w: World, reason = 'Cold food') {
  const reporter = await buildUser(ctx);
  await ctx.database.db
    .insert(reports)
    .values({ reporterId: reporter.id, targetKind: 'kitchen', targetId: w.cook.kitchen.uid, reason });
}

/** Everything about the notice, for one assertion on all of it. */
const whole = (n: RenderedNotice | null) => {
  if (!n) throw new Error('nothing rendered');
  return n;
};

/** The text's first paragraph: what a push shows. */
const lead = (n: RenderedNotice) => n.text.split(/\n\s*\n/)[0] ?? '';

/** A failed week (Thursday 17 January 2030) of the world's customer's weekly plan at its kitchen, at 18:00. */
async function failedPlanWeek(ctx: TestContext, w: World, values: Record<string, string>) {
  const [plan] = await ctx.database.db
    .insert(mealPlans)
    .values({
      customerId: w.customer.id,
      kitchenId: w.cook.kitchen.uid,
      weekday: 'thu',
      slotTime: '18:00',
      itemIds: [randomUUID()],
      fulfilment: 'delivery',
      paymentMethod: 'cash',
      startsOn: '2030-01-10',
    })
    .returning();
  const [week] = await ctx.database.db
    .insert(mealPlanWeeks)
    .values({
      planId: plan!.id,
      slotDate: '2030-01-17',
      state: 'failed',
      reasonCode: 'KITCHEN_CLOSED',
      reason: '{name} is not taking orders right now.',
      reasonValues: values,
    })
    .returning();
  return week!.id;
}

describeEachEngine('rendering notices: the words of each kind, and everything typed escaped', (get) => {
  it("counts an order's dishes: 'Dal × 2, Rice'", () => {
    expect(
      itemsText([
        { item: 'Dal', priceCents: 950 },
        { item: 'Rice', priceCents: 300 },
        { item: 'Dal', priceCents: 950 },
      ]),
    ).toBe('Dal × 2, Rice');
  });

  it("tells the cook of a new order: its dishes, the customer's email, the total, delivery, the note, and links to the orders", async () => {
    const w = await orderWorld(get(), { patch: { note: 'No onions, please' } });
    const n = whole(await render(get(), w, 'order-new'));
    expect(n.subject).toBe('New order: Dal × 2, Rice');
    expect(lead(n)).toBe(
      `${w.customer.email} ordered Dal × 2, Rice from ${w.kitchenName}: $32.45, delivery, as soon as possible. Accept or decline it on your orders page.`,
    );
    expect(n.text).toContain('Delivery: 9 Delivery Road');
    expect(n.text).toContain('Note for the cook:\n> No onions, please');
    expect(n.text).toContain(`Open your orders: ${PUBLIC_URL}/KitchenOrders`);
    expect(n.path).toBe('/KitchenOrders');
    expect(n.html).toContain(`href="${PUBLIC_URL}/KitchenOrders"`);
    expect(n.html).toContain('No onions, please');
  });

  it("gives a pre-order's slot and when to answer by, in the kitchen's time zone, saying so; and a pickup", async () => {
    const slot = { start: '2030-01-16T12:30:00.000Z', end: '2030-01-16T13:00:00.000Z' };
    const w = await orderWorld(get(), {
      patch: {
        fulfilment: 'pickup',
        slotStart: new Date(slot.start),
        slotEnd: new Date(slot.end),
        answerBy: new Date('2030-01-16T10:30:00Z'),
        deliveryFeeCents: 0,
        totalCents: 2200 + 746,
      },
    });
    const n = whole(await render(get(), w, 'order-new'));
    const when = `${slotLabel(slot, TZ, NOW)} (Asia/Kolkata time)`;
    expect(when).toBe('Tomorrow 6:00–6:30 PM (Asia/Kolkata time)');
    expect(lead(n)).toContain(`$29.46, pickup for ${when}.`);
    expect(n.text).toContain('Answer by: Tomorrow 4:00 PM (Asia/Kolkata time)');

    const accepted = whole(await render(get(), w, 'order-accepted'));
    expect(lead(accepted)).toBe(
      `${w.kitchenName} accepted your order of Dal × 2, Rice. It will be ready for your slot: ${when}.`,
    );
    expect(accepted.text).toContain('Pick up at: 12 Pickup Lane\nHow: Ring twice');

    const ready = whole(await render(get(), w, 'order-dispatched'));
    expect(ready.subject).toBe(`Your order from ${w.kitchenName} is ready to pick up`);
    expect(ready.text).toContain('Pick up at: 12 Pickup Lane');
  });

  it('tells the customer of each step: accepted with its ready time, declined and cancelled with the reason, on its way, delivered, refunded', async () => {
    const w = await orderWorld(get(), {
      patch: { readyAt: new Date('2030-01-15T14:15:00Z'), endReason: 'We ran out of dal' },
    });
    const accepted = whole(await render(get(), w, 'order-accepted'));
    expect(accepted.subject).toBe(`${w.kitchenName} accepted your order`);
    expect(lead(accepted)).toBe(
      `${w.kitchenName} accepted your order of Dal × 2, Rice. It should be ready at about Today 7:45 PM (Asia/Kolkata time).`,
    );
    expect(accepted.text).toContain(`See your order: ${PUBLIC_URL}/CustomerOrderStatus`);
    expect(accepted.path).toBe('/CustomerOrderStatus');

    const declined = whole(await render(get(), w, 'order-declined'));
    expect(declined.subject).toBe(`${w.kitchenName} declined your order`);
    expect(lead(declined)).toContain('Reason: We ran out of dal');
    expect(declined.text).toContain('Reason:\n> We ran out of dal');

    const cancelled = whole(await render(get(), w, 'order-cancelled'));
    expect(cancelled.subject).toBe(`Your order from ${w.kitchenName} was cancelled`);
    expect(lead(cancelled)).toContain('Reason: We ran out of dal');

    const dispatched = whole(await render(get(), w, 'order-dispatched'));
    expect(dispatched.subject).toBe(`Your order from ${w.kitchenName} is on its way`);
    expect(lead(dispatched)).toBe(
      `Your order of Dal × 2, Rice from ${w.kitchenName} is on its way to 9 Delivery Road.`,
    );

    const delivered = whole(await render(get(), w, 'order-delivered'));
    expect(delivered.subject).toBe(`Your order from ${w.kitchenName} was delivered`);
    expect(delivered.text).toContain(`Rate your order: ${PUBLIC_URL}/CustomerOrderStatus`);
    expect(delivered.html).toMatch(/<a href="[^"]+\/CustomerOrderStatus" [^>]*>Rate your order<\/a>/);

    const refunded = whole(await render(get(), w, 'order-refunded'));
    expect(refunded.subject).toBe(`Refund of $32.45 from ${w.kitchenName}`);
    expect(lead(refunded)).toContain('$32.45 goes back to your card');
    // The ledger's refund, when there is one.
    await get().database.db.insert(ledgerEntries).values({
      orderId: w.order.id,
      kitchenId: w.cook.kitchen.uid,
      kind: 'refunded',
      amountCents: -1250,
      currency: 'USD',
    });
    expect(whole(await render(get(), w, 'order-refunded')).subject).toBe(
      `Refund of $12.50 from ${w.kitchenName}`,
    );
  });

  it('tells the cook of an order nobody answered, of a cancellation with its reason, of a review and of open reports', async () => {
    const w = await orderWorld(get(), { patch: { endReason: 'Changed my mind' } });
    const unanswered = whole(await render(get(), w, 'order-unanswered'));
    expect(unanswered.subject).toBe('Order declined, nobody answered in time: Dal × 2, Rice');
    expect(lead(unanswered)).toContain('was declined because nobody answered it in time');
    expect(unanswered.path).toBe('/KitchenOrders');

    const cancelled = whole(await render(get(), w, 'order-cancelled-by-customer'));
    expect(cancelled.subject).toBe('Order cancelled by the customer: Dal × 2, Rice');
    expect(lead(cancelled)).toBe(
      `${w.customer.email} cancelled their order of Dal × 2, Rice at ${w.kitchenName}.`,
    );
    expect(cancelled.text).toContain('Their reason:\n> Changed my mind');

    const review = await addReview(get(), w, 4, 'Lovely dal,\nwould order again');
    const reviewed = whole(await render(get(), w, 'review-new', review.id));
    expect(reviewed.subject).toBe(`New review of ${w.kitchenName}: 4 of 5 stars`);
    expect(lead(reviewed)).toContain('4 of 5 stars (★★★★☆) for their order of Dal × 2, Rice');
    expect(reviewed.text).toContain('Their review:\n> Lovely dal,\n> would order again');
    expect(reviewed.path).toBe(`/KitchenMenu/${w.cook.kitchen.uid}`);

    // No open report: nothing to tell; then a digest of how many are open.
    expect(await render(get(), w, 'reports')).toBeNull();
    await addReport(get(), w);
    expect(whole(await render(get(), w, 'reports')).subject).toBe(`1 open report about ${w.kitchenName}`);
    await addReport(get(), w);
    await addReport(get(), w);
    const digest = whole(await render(get(), w, 'reports'));
    expect(digest.subject).toBe(`3 open reports about ${w.kitchenName}`);
    expect(lead(digest)).toContain(`There are 3 open reports about ${w.kitchenName}.`);
    expect(digest.path).toBe('/MenuDashboard');
  });

  it('tells the customer of a week of their plan that could not be placed: when, why, and that the plan goes on', async () => {
    const w = await orderWorld(get());
    const week = await failedPlanWeek(get(), w, { name: w.kitchenName });
    const n = whole(await render(get(), w, 'plan-week-failed', week));
    expect(n.subject).toBe(`Your weekly order from ${w.kitchenName} for Jan 17, 2030 was not placed`);
    expect(lead(n)).toBe(
      `Your weekly plan could not place its order from ${w.kitchenName} for Jan 17, 2030 at 6:00 PM. Nothing was charged, and your plan goes on next week.`,
    );
    expect(n.text).toContain(`${w.kitchenName} is not taking orders right now.`);
    expect(n.path).toBe('/CustomerOrders#plans');
    // Not to the cook, nor to another customer.
    expect(
      await renderNotice(
        get().database.db,
        { kind: 'plan-week-failed', subjectId: week, recipientId: w.cook.user.id },
        PUBLIC_URL,
        NOW,
      ),
    ).toBeNull();
  });

  it('escapes, in the HTML, everything a person typed: dishes, note, reason, review, customer email, kitchen name', async () => {
    const w = await orderWorld(get(), {
      kitchenName: `Bad ${SCRIPT} Kitchen ${randomUUID().slice(0, 4)}`,
      customerEmail: `${IMG}${randomUUID().slice(0, 4)}@evil.test`,
      lines: [
        { item: SCRIPT, priceCents: 100 },
        { item: IMG, priceCents: 100 },
      ],
      patch: {
        note: `${SCRIPT} ${IMG}`,
        endReason: `${SCRIPT} ${IMG}`,
        address: `${IMG} Road`,
        readyAt: new Date('2030-01-15T14:15:00Z'),
        fulfilment: 'delivery',
      },
    });
    await get()
      .database.db.update(kitchens)
      .set({ pickupAddress: SCRIPT, pickupInstructions: IMG })
      .where(eq(kitchens.ownerId, w.cook.kitchen.uid));
    const review = await addReview(get(), w, 1, `${SCRIPT} ${IMG}`);
    await addReport(get(), w, SCRIPT);
    // A helper's food handler card, whose holder's name was typed.
    const [card] = await get()
      .database.db.insert(kitchenDocuments)
      .values({
        kitchenId: w.cook.kitchen.uid,
        kind: 'food-handler-card',
        number: 'FH-1',
        holder: IMG,
        expiresOn: NOW.toISOString().slice(0, 10),
      })
      .returning();
    // A week of the customer's plan that failed, its reason naming what was typed.
    const week = await failedPlanWeek(get(), w, { name: SCRIPT });
    const subjects: Partial<Record<NoticeKind, string>> = {
      'review-new': review.id,
      'document-expiring': card!.id,
      'plan-week-failed': week,
    };
    // A change of fees holds nothing anyone typed (a percent and a date: tests/api/fee-changes.test.ts renders it); a
    // receipt needs money taken, a problem notice a report: both are rendered in src/server/orders/receipts.test.ts; a
    // plan's reminder needs its week's cut-off a day away (src/server/orders/plans.test.ts).
    // A card plan's week that needs its customer, in src/server/orders/card-plans.test.ts. A helper's card due needs
    // a kitchen whose rules ask for one: src/server/law/helper-cards.test.ts renders it.
    const elsewhere: NoticeKind[] = [
      'helper-card-due',
      'fee-change',
      'order-receipt',
      'order-problem',
      'plan-week-reminder',
      'plan-card-needs-you',
    ];
    for (const kind of NOTICE_KINDS.filter((k) => !elsewhere.includes(k))) {
      const n = whole(await render(get(), w, kind, subjects[kind]));
      expect(n.html, kind).not.toMatch(/<script/i);
      expect(n.html, kind).not.toMatch(/<img/i);
      // What was typed is there, as text.
      const typed =
        n.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;') ||
        n.html.includes('&quot;&gt;&lt;img src=x');
      expect(typed, `${kind}: ${n.html}`).toBe(true);
      // The plain text holds it as typed (a mail program shows text as text).
      expect(n.text.includes(SCRIPT) || n.text.includes(IMG), kind).toBe(true);
    }
    // Pickup details too.
    await get().database.db.update(orders).set({ fulfilment: 'pickup' }).where(eq(orders.id, w.order.id));
    const pickup = whole(await render(get(), w, 'order-accepted'));
    expect(pickup.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(pickup.html).not.toMatch(/<script|<img/i);
  });

  it("renders in the recipient's language: the page's lang and direction, money, days and times formatted in it", async () => {
    const w = await orderWorld(get(), {
      patch: {
        slotStart: new Date('2030-01-16T12:30:00Z'),
        slotEnd: new Date('2030-01-16T13:00:00Z'),
      },
    });
    const notice = { kind: 'order-new' as const, subjectId: w.order.id, recipientId: w.cook.user.id };
    const french = whole(
      await renderNotice(get().database.db, notice, PUBLIC_URL, NOW, get().app.i18n.translator('fr')),
    );
    expect(french.html).toContain('<html lang="fr">');
    expect(french.text).toContain('32,45');
    expect(french.text).toContain('18:00');
    expect(french.text).not.toContain('PM');
    const arabic = whole(
      await renderNotice(get().database.db, notice, PUBLIC_URL, NOW, get().app.i18n.translator('ar')),
    );
    expect(arabic.html).toContain('<html lang="ar" dir="rtl">');
  });

  it('renders nothing when what it is about is gone, or is not the recipient’s to hear of', async () => {
    const w = await orderWorld(get());
    const db = get().database.db;
    // Another person than the order's customer or cook.
    const stranger = await buildUser(get());
    expect(
      await renderNotice(
        db,
        { kind: 'order-accepted', subjectId: w.order.id, recipientId: stranger.id },
        PUBLIC_URL,
      ),
    ).toBeNull();
    expect(
      await renderNotice(
        db,
        { kind: 'order-new', subjectId: w.order.id, recipientId: w.customer.id },
        PUBLIC_URL,
      ),
    ).toBeNull();
    expect(
      await renderNotice(
        db,
        { kind: 'reports', subjectId: w.cook.kitchen.uid, recipientId: stranger.id },
        PUBLIC_URL,
      ),
    ).toBeNull();
    // A hidden review.
    const review = await addReview(get(), w, 5, 'Great');
    await db.update(reviews).set({ hiddenAt: new Date() }).where(eq(reviews.id, review.id));
    expect(await render(get(), w, 'review-new', review.id)).toBeNull();
    // An order that no longer exists.
    await db.delete(orders).where(eq(orders.id, w.order.id));
    expect(await render(get(), w, 'order-accepted')).toBeNull();
    expect(await render(get(), w, 'order-new', randomUUID())).toBeNull();
  });
});
