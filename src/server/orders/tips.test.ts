import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { CustomerOrder } from '../../shared/orders.js';
import type { Earnings, KitchenPayments } from '../../shared/payments.js';
import type { TipStarted } from '../../shared/tips.js';
import { ledgerEntries, orderEvents, orderTips } from '../db/schema.js';
import { reconcile } from '../money/reconcile.js';
import { FakeClock } from '../test/fake-clock.js';
import { expectMoneySettled } from '../test/payment-checks.js';
import {
  deliveredCardOrder,
  localProvider,
  money,
  orderCalls,
  paidKitchen,
  placeOrder,
  sessionOf,
  TO_THE_DOOR,
} from '../test/payments-world.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

const clock = new FakeClock();
clock.advance(Date.now());
const setClock = (at: number) => clock.advance(at - clock.now());
const HOUR = 60 * 60 * 1000;

describeEachEngine(
  'tips for the cook',
  (get) => {
    const tip = (cookie: string, orderId: string, body: Record<string, unknown>) =>
      get().app.inject({
        method: 'POST',
        url: `/api/orders/${orderId}/tips`,
        headers: { cookie },
        payload: body,
      });
    const earnings = async (cookie: string) =>
      (await get().app.inject({ url: '/api/kitchen/earnings', headers: { cookie } })).json<Earnings>();
    const sessionIn = (url: string | null) => /\/checkout\/(cs_[0-9a-f]+)/.exec(url ?? '')?.[1] ?? '';

    /** A delivered card order (2 × Dal, 9.50 each), the clock at its delivery. */
    async function delivered(ctx: TestContext) {
      const paid = await deliveredCardOrder(ctx);
      const [event] = await ctx.database.db
        .select({ at: orderEvents.createdAt })
        .from(orderEvents)
        .where(and(eq(orderEvents.orderId, paid.order.id), eq(orderEvents.state, 'delivered')));
      setClock(Date.now());
      return { ...paid, deliveredAt: event?.at ?? new Date() };
    }

    it('takes a tip at checkout in the order’s charge, outside the platform’s fee, as an entry of its own', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const payments = await ctx.app.inject({ url: `/api/kitchens/${world.cook.kitchen.uid}/payments` });
      expect(payments.json<KitchenPayments>()).toEqual({ card: true, cash: false, tips: true });
      const customer = await signedIn(ctx, 'customer');
      const plain = await signedIn(ctx, 'customer');
      const tipped = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal, world.dal], {
        tipCents: 300,
      });
      expect(tipped.statusCode, tipped.body).toBe(201);
      const order = tipped.json<CustomerOrder>();
      const untipped = (
        await placeOrder(ctx, plain.cookie, world.cook.kitchen.uid, [world.dal, world.dal])
      ).json<CustomerOrder>();
      expect(order.tipCents).toBe(300);
      expect(order.totalCents).toBe(untipped.totalCents + 300);
      const { row: tippedRow } = await money(ctx, order.id);
      const { row: plainRow } = await money(ctx, untipped.id);
      // The same fee with or without the tip: none is taken on it.
      expect(tippedRow?.platformFeeCents).toBe(plainRow?.platformFeeCents);
      const fee = tippedRow?.platformFeeCents ?? 0;
      const local = localProvider(ctx);
      await local.pay(sessionOf(order), TEST_CARDS.pays);
      await local.settled();
      const { move } = orderCalls(() => ctx);
      for (const body of TO_THE_DOOR)
        expect((await move(world.cook.cookie, order.id, body)).statusCode).toBe(200);
      await local.settled();
      const tipRows = await ctx.database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.entry, 'tip:checkout')));
      expect(tipRows.map((r) => [r.kind, r.amountCents])).toEqual([['tip_transfer', 300]]);
      const { ledger } = await money(ctx, order.id);
      expect(ledger).toMatchObject({
        captured: order.totalCents,
        platform_fee: fee,
        kitchen_transfer: order.totalCents - fee - 300,
      });
      // The provider's figures agree: the whole charge transferred, the same fee taken back.
      await expectMoneySettled(ctx, order.id);
      expect((await reconcile(ctx.app)).found.filter((d) => d.scope === `order:${order.id}`)).toEqual([]);
      const line = (await earnings(world.cook.cookie)).lines.find((l) => l.orderId === order.id);
      expect(line).toMatchObject({ tipCents: 300, platformFeeCents: fee, netCents: order.totalCents - fee });
    });

    it('gives a checkout tip back with its order when the order is cancelled after capture', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const order = (
        await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal], { tipCents: 250 })
      ).json<CustomerOrder>();
      const local = localProvider(ctx);
      await local.pay(sessionOf(order), TEST_CARDS.pays);
      await local.settled();
      const { move } = orderCalls(() => ctx);
      expect(
        (await move(world.cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 })).statusCode,
      ).toBe(200);
      await local.settled();
      const cancelled = await move(world.cook.cookie, order.id, { move: 'cancel', reason: 'Out of lamb' });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      await local.settled();
      const { ledger, row } = await money(ctx, order.id);
      expect(row?.paymentState).toBe('refunded');
      expect(ledger).toMatchObject({ tip_transfer: 250, tip_reversed: -250, refunded: -order.totalCents });
      await expectMoneySettled(ctx, order.id);
      expect((await reconcile(ctx.app)).found.filter((d) => d.scope === `order:${order.id}`)).toEqual([]);
      const line = (await earnings(world.cook.cookie)).lines.find((l) => l.orderId === order.id);
      expect(line).toMatchObject({ tipCents: 0, netCents: 0 });
    });

    it('refuses a tip at checkout with cash, where tips are off, and bad amounts, naming tipCents', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx, { acceptsCash: true });
      const customer = await signedIn(ctx, 'customer');
      const items = [world.dal];
      for (const tipCents of [-5, 2.5, 'two', 50_001]) {
        const res = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, items, { tipCents });
        expect(res.statusCode, String(tipCents)).toBe(400);
        expect(res.json()).toMatchObject({ field: 'tipCents' });
      }
      const cash = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, items, {
        tipCents: 200,
        payment: 'cash',
      });
      expect(cash.statusCode).toBe(400);
      expect(cash.json()).toMatchObject({ field: 'tipCents' });
      const off = await ctx.app.inject({
        method: 'PUT',
        url: '/api/kitchen/payouts/tips',
        headers: { cookie: world.cook.cookie },
        payload: { acceptsTips: false },
      });
      expect(off.json()).toMatchObject({ acceptsTips: false });
      const payments = await ctx.app.inject({ url: `/api/kitchens/${world.cook.kitchen.uid}/payments` });
      expect(payments.json<KitchenPayments>().tips).toBe(false);
      const refused = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, items, {
        tipCents: 200,
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'TIPS_REFUSED', field: 'tipCents' });
      // No tip: the order goes through.
      expect((await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, items)).statusCode).toBe(201);
    });

    it('takes a tip after delivery as a payment of its own, whole to the cook, once per request key', async () => {
      const ctx = get();
      const { cook, customer, order } = await delivered(ctx);
      const feeBefore = (await money(ctx, order.id)).ledger.platform_fee;
      const key = randomUUID();
      const started = await tip(customer.cookie, order.id, { amountCents: 500, requestKey: key });
      expect(started.statusCode, started.body).toBe(201);
      const { tip: given, checkoutUrl } = started.json<TipStarted>();
      expect(given).toMatchObject({ amountCents: 500, state: 'paying' });
      // A double click: the same tip and page.
      const again = await tip(customer.cookie, order.id, { amountCents: 500, requestKey: key });
      expect(again.json<TipStarted>()).toMatchObject({ tip: { id: given.id }, checkoutUrl });
      const local = localProvider(ctx);
      await local.pay(sessionIn(checkoutUrl), TEST_CARDS.pays);
      await local.settled();
      const [row] = await ctx.database.db.select().from(orderTips).where(eq(orderTips.id, given.id));
      expect(row).toMatchObject({ state: 'paid' });
      const entry = await ctx.database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.entry, `tip:${given.id}`)));
      expect(entry.map((r) => [r.kind, r.amountCents, r.providerRef]).sort()).toEqual([
        ['tip', 500, row?.paymentIntentId],
        ['tip_transfer', 500, row?.paymentIntentId],
      ]);
      // At the provider: captured at once, all of it transferred, no application fee.
      const figures = await ctx.app.payments.provider?.figures(row?.paymentIntentId ?? '');
      expect(figures).toMatchObject({
        state: 'captured',
        captured: 500,
        platformFee: 0,
        transferReversed: 0,
      });
      // The order's own money is untouched, and still agrees with the provider.
      expect((await money(ctx, order.id)).ledger.platform_fee).toBe(feeBefore);
      await expectMoneySettled(ctx, order.id);
      expect((await reconcile(ctx.app)).found.filter((d) => d.scope === `order:${order.id}`)).toEqual([]);
      // A replayed event, a repeated request: still one tip, one entry.
      const repeat = await tip(customer.cookie, order.id, { amountCents: 500, requestKey: key });
      expect(repeat.json<TipStarted>().tip).toMatchObject({ id: given.id, state: 'paid' });
      for (const event of local.events.slice(-3)) await local.resend(event);
      await local.settled();
      const rows = await ctx.database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.entry, `tip:${given.id}`)));
      expect(rows).toHaveLength(2);
      // Both sides' orders show it; the cook's earnings show it whole.
      const mine = (await ctx.app.inject({ url: '/api/orders', headers: { cookie: customer.cookie } })).json<
        CustomerOrder[]
      >();
      expect(mine.find((o) => o.id === order.id)?.tips).toEqual([expect.objectContaining({ state: 'paid' })]);
      const line = (await earnings(cook.cookie)).lines.find((l) => l.orderId === order.id);
      expect(line).toMatchObject({ tipCents: 500 });
      const csv = await ctx.app.inject({
        url: '/api/kitchen/earnings.csv',
        headers: { cookie: cook.cookie },
      });
      expect(csv.body).toContain('Tip');
      expect(csv.body).toContain(',5.00,');
    });

    it('refuses a tip after 48 hours, before delivery, for another’s order, where tips are off, and bad amounts', async () => {
      const ctx = get();
      const { cook, customer, order, deliveredAt } = await delivered(ctx);
      const stranger = await signedIn(ctx, 'customer');
      const key = () => randomUUID();
      const theirs = await tip(stranger.cookie, order.id, { amountCents: 500, requestKey: key() });
      expect(theirs.statusCode).toBe(404);
      const asCook = await tip(cook.cookie, order.id, { amountCents: 500, requestKey: key() });
      // A cook's session is not a customer's.
      expect(asCook.statusCode).toBe(401);
      const cases: [Record<string, unknown>, string][] = [
        [{ amountCents: 10, requestKey: key() }, 'amountCents'],
        [{ amountCents: 2.5, requestKey: key() }, 'amountCents'],
        [{ amountCents: -100, requestKey: key() }, 'amountCents'],
        [{ amountCents: '5', requestKey: key() }, 'amountCents'],
        [{ amountCents: 50_001, requestKey: key() }, 'amountCents'],
        [{ amountCents: 500, requestKey: 'no' }, 'requestKey'],
      ];
      for (const [body, field] of cases) {
        const res = await tip(customer.cookie, order.id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json(), JSON.stringify(body)).toMatchObject({ field });
      }
      setClock(deliveredAt.getTime() + 49 * HOUR);
      const late = await tip(customer.cookie, order.id, { amountCents: 500, requestKey: key() });
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({ code: 'TIP_CLOSED' });
      setClock(deliveredAt.getTime() + 47 * HOUR);
      await ctx.app.inject({
        method: 'PUT',
        url: '/api/kitchen/payouts/tips',
        headers: { cookie: cook.cookie },
        payload: { acceptsTips: false },
      });
      const off = await tip(customer.cookie, order.id, { amountCents: 500, requestKey: key() });
      expect(off.statusCode).toBe(409);
      expect(off.json()).toMatchObject({ code: 'TIPS_REFUSED', field: 'amountCents' });
      expect(await ctx.database.db.select().from(orderTips).where(eq(orderTips.orderId, order.id))).toEqual(
        [],
      );
      // Not delivered yet: closed.
      const world = await paidKitchen(ctx);
      const early = await signedIn(ctx, 'customer');
      const placed = (
        await placeOrder(ctx, early.cookie, world.cook.kitchen.uid, [world.dal])
      ).json<CustomerOrder>();
      const notYet = await tip(early.cookie, placed.id, { amountCents: 500, requestKey: key() });
      expect(notYet.statusCode).toBe(409);
      expect(notYet.json()).toMatchObject({ code: 'TIP_CLOSED' });
    });
  },
  { PAYMENTS: 'local' },
  { clock },
);
