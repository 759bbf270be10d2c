import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { FeeChange, MarketplaceFees } from '../../src/shared/payments.js';
import { notificationOutbox, operatorActions, orders } from '../../src/server/db/schema.js';
import { renderNotice } from '../../src/server/notifications/render.js';
import { buildKitchen } from '../../src/server/test/builders.js';
import { FakeClock } from '../../src/server/test/fake-clock.js';
import { OPERATOR_EMAIL, operatorEnv, send } from '../../src/server/test/moderation.js';
import { paidOrder } from '../../src/server/test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../../src/server/test/test-app.js';

const DAY = 86_400_000;
const clock = new FakeClock();
clock.advance(Date.now());
const dayIn = (days: number) => new Date(clock.now() + days * DAY).toISOString().slice(0, 10);

describeEachEngine(
  'a change of fees: announced to every cook 30 days ahead, in force from its day',
  (get) => {
    const schedule = (ctx: TestContext, cookie: string | undefined, body: unknown) =>
      send(ctx.app, 'POST', '/api/operator/fee-changes', cookie, body);
    const fees = async (ctx: TestContext) => (await ctx.app.inject('/api/fees')).json<MarketplaceFees>();
    /** The platform's fee kept on a new card order (2 × Dal at 9.50), and its fees and tax. */
    const platformFee = async (ctx: TestContext) => {
      const { order } = await paidOrder(ctx);
      const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, order.id));
      return { fee: row?.platformFeeCents, base: row?.feesAndTaxCents ?? 0 };
    };

    it('refuses a change less than 30 days ahead naming the field, announces one 30 days ahead to every cook, and applies it from its day', async () => {
      const ctx = get();
      const ops = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const cooks = [await buildKitchen(ctx), await buildKitchen(ctx)];
      expect(await fees(ctx)).toEqual({ cardPayments: true, commissionPercent: 12.5, upcoming: null });

      // Nobody but an operator; not sooner than 30 days; a percent of 0 to 100.
      const body = { commissionPercent: 15, effectiveOn: dayIn(30) };
      expect((await schedule(ctx, cooks[0]?.cookie, body)).statusCode).toBe(401);
      expect((await schedule(ctx, undefined, body)).statusCode).toBe(401);
      const soon = await schedule(ctx, ops.cookie, { ...body, effectiveOn: dayIn(29) });
      expect(soon.statusCode).toBe(400);
      expect(soon.json()).toMatchObject({ field: 'effectiveOn' });
      expect(soon.json<{ message: string }>().message).toContain(dayIn(30));
      for (const [bad, field] of [
        [{ ...body, commissionPercent: 51 }, 'commissionPercent'],
        [{ ...body, commissionPercent: 'a lot' }, 'commissionPercent'],
        [{ ...body, effectiveOn: 'next month' }, 'effectiveOn'],
      ] as const) {
        const res = await schedule(ctx, ops.cookie, bad);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ field });
      }
      expect((await fees(ctx)).upcoming).toBeNull();

      const made = await schedule(ctx, ops.cookie, body);
      expect(made.statusCode, made.body).toBe(201);
      const change = made.json<FeeChange>();
      expect(change).toMatchObject({
        commissionPercent: 15,
        effectiveOn: dayIn(30),
        operatorEmail: OPERATOR_EMAIL,
      });
      expect(change.cooks).toBeGreaterThanOrEqual(2);

      // An email to every cook, through the outbox, once each; the operators' log says who.
      const notices = await ctx.database.db
        .select()
        .from(notificationOutbox)
        .where(and(eq(notificationOutbox.kind, 'fee-change'), eq(notificationOutbox.subjectId, change.id)));
      expect(notices).toHaveLength(change.cooks);
      for (const cook of cooks) expect(notices.map((n) => n.recipientId)).toContain(cook.kitchen.uid);
      const email = await renderNotice(
        ctx.database.db,
        { kind: 'fee-change', subjectId: change.id, recipientId: cooks[0]?.kitchen.uid ?? '' },
        'http://localhost:3000',
        new Date(clock.now()),
        ctx.app.i18n.translator('en'),
      );
      expect(email?.subject).toContain("HomeCooked's fees change on");
      expect(email?.text).toContain("the marketplace's share of a card order's dishes will be 15 %");
      const [logged] = await ctx.database.db
        .select()
        .from(operatorActions)
        .where(eq(operatorActions.action, 'schedule_fee_change'));
      expect(logged).toMatchObject({ operatorEmail: OPERATOR_EMAIL });

      // Until its day, today's fee; said ahead on GET /api/fees.
      expect(await fees(ctx)).toEqual({
        cardPayments: true,
        commissionPercent: 12.5,
        upcoming: { commissionPercent: 15, effectiveOn: dayIn(30) },
      });
      const before = await platformFee(ctx);
      expect(before.fee).toBe(before.base + Math.round((1900 * 12.5) / 100));

      // From its day, the new one.
      clock.advance(30 * DAY);
      expect(await fees(ctx)).toEqual({ cardPayments: true, commissionPercent: 15, upcoming: null });
      const after = await platformFee(ctx);
      expect(after.fee).toBe(after.base + Math.round((1900 * 15) / 100));
    });

    it("is a notice no cook can turn off: 'Notifications' shows it locked on, and turning it off is refused naming the field", async () => {
      const ctx = get();
      const { cookie } = await buildKitchen(ctx);
      const settings = await ctx.app.inject({ url: '/api/notifications/settings', headers: { cookie } });
      expect(
        settings.json<{ email: { kind: string; email: boolean; locked: boolean }[] }>().email,
      ).toContainEqual(expect.objectContaining({ kind: 'fee-change', email: true, locked: true }));
      const off = await ctx.app.inject({
        method: 'PUT',
        url: '/api/notifications/settings/email',
        headers: { cookie },
        payload: { kind: 'fee-change', email: false },
      });
      expect(off.statusCode).toBe(409);
      expect(off.json()).toMatchObject({
        field: 'email',
        message: 'Notices of a change of fees are always emailed: every cook must hear of it 30 days ahead',
      });
    });
  },
  { ...operatorEnv, PAYMENTS: 'local', PLATFORM_COMMISSION_PERCENT: '12.5' },
  { clock },
);
