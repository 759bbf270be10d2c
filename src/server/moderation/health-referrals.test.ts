import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import type { ModerationView, ReferralResult } from '../../shared/moderation.js';
import type { CustomerOrder } from '../../shared/orders.js';
import { operatorActions } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { addPapers, PERMIT_NUMBER, startCaliforniaGeocoder } from '../test/law.js';
import { OPERATOR_EMAIL, operatorEnv, send } from '../test/moderation.js';
import { orderCalls, TO_THE_DOOR } from '../test/payments-world.js';
import { readPdf } from '../test/read-pdf.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

// The kitchen is in Los Angeles County (a local stand-in for Photon places it): its rules ask for a MEHKO permit
// issued by the county's environmental health department, the authority a referral names.
const fake = await startCaliforniaGeocoder();
afterAll(() => fake.close());

let addressCounter = 0;

describeEachEngine(
  'food-safety complaints: three put a kitchen before the operators, who refer it to the health authority',
  (get) => {
    const operator = (ctx: TestContext) => signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
    const view = async (ctx: TestContext, cookie: string) => {
      const res = await send(ctx.app, 'GET', '/api/operator/moderation', cookie);
      expect(res.statusCode).toBe(200);
      return res.json<ModerationView>();
    };
    const refer = (ctx: TestContext, uid: string, cookie?: string) =>
      send(ctx.app, 'POST', `/api/operator/kitchens/${uid}/referral`, cookie);
    const referralRows = (ctx: TestContext, uid: string) =>
      ctx.database.db
        .select()
        .from(operatorActions)
        .where(and(eq(operatorActions.action, 'refer_kitchen'), eq(operatorActions.targetId, uid)));

    /** A kitchen in Los Angeles County with its papers, approved, and a dish. */
    async function californianKitchen(ctx: TestContext) {
      const cook = await buildKitchen(ctx, {
        name: `Casa ${randomUUID().slice(0, 8)}`,
        address: '12 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      await addPapers(ctx, cook);
      const dish = await buildMenuItem(ctx, cook.kitchen, { item: 'Tamales', price: '8.00' });
      return { cook, dish };
    }

    /** A new customer's order of the dish, taken to their door, then reported: 'Made me ill'. */
    async function madeIll(ctx: TestContext, world: Awaited<ReturnType<typeof californianKitchen>>) {
      const customer = await signedIn(ctx, 'customer');
      const placed = await ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie: customer.cookie },
        payload: {
          kitchenUid: world.cook.kitchen.uid,
          itemIds: [world.dish.id],
          address: '1 Road',
          idempotencyKey: randomUUID(),
        },
        remoteAddress: `2001:db8::e:${(++addressCounter).toString(16)}`,
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const order = placed.json<CustomerOrder>();
      const { move } = orderCalls(() => ctx);
      for (const body of TO_THE_DOOR) {
        const moved = await move(world.cook.cookie, order.id, body);
        expect(moved.statusCode, moved.body).toBe(200);
      }
      const reported = await send(ctx.app, 'POST', `/api/orders/${order.id}/problem`, customer.cookie, {
        reason: 'made_ill',
        dishes: [{ item: 'Tamales', priceCents: 800, quantity: 1 }],
        details: 'Stomach cramps that night',
      });
      expect(reported.statusCode, reported.body).toBe(201);
      return order;
    }

    it('flags a kitchen at the third complaint, not the second, and records one referral naming the authority', async () => {
      const ctx = get();
      const world = await californianKitchen(ctx);
      const ops = await operator(ctx);
      const first = await madeIll(ctx, world);
      await madeIll(ctx, world);
      // Two complaints: no flag.
      expect((await view(ctx, ops.cookie)).referrals.map((k) => k.uid)).not.toContain(world.cook.kitchen.uid);

      const third = await madeIll(ctx, world);
      const flagged = (await view(ctx, ops.cookie)).referrals.find((k) => k.uid === world.cook.kitchen.uid);
      expect(flagged).toMatchObject({ name: world.cook.kitchen.name, complaints: 3, referral: null });

      // Nobody but an operator refers (every role: the authorisation matrix).
      const cookAsks = await refer(ctx, world.cook.kitchen.uid, world.cook.cookie);
      expect(cookAsks.statusCode).toBe(401);
      const customer = await signedIn(ctx, 'customer');
      expect((await refer(ctx, world.cook.kitchen.uid, customer.cookie)).statusCode).toBe(401);
      expect((await refer(ctx, world.cook.kitchen.uid)).statusCode).toBe(401);
      expect(await referralRows(ctx, world.cook.kitchen.uid)).toHaveLength(0);

      // Pressed twice at once, then again: one referral, who, when and which authority in the log.
      const [a, b] = await Promise.all([
        refer(ctx, world.cook.kitchen.uid, ops.cookie),
        refer(ctx, world.cook.kitchen.uid, ops.cookie),
      ]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      const answers = [a.json<ReferralResult>(), b.json<ReferralResult>()];
      expect(answers.map((r) => r.changed).sort()).toEqual([false, true]);
      const again = await refer(ctx, world.cook.kitchen.uid, ops.cookie);
      expect(again.json<ReferralResult>().changed).toBe(false);
      const rows = await referralRows(ctx, world.cook.kitchen.uid);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ operatorEmail: OPERATOR_EMAIL, targetKind: 'kitchen' });
      expect(rows[0]?.note).toContain(
        "Referred to the county's environmental health department (Los Angeles County).",
      );
      expect(rows[0]?.note).toContain('3 food-safety complaints in the last 30 days.');
      expect(again.json<ReferralResult>().referral).toEqual({
        operatorEmail: OPERATOR_EMAIL,
        referredAt: rows[0]?.createdAt.toISOString(),
        note: rows[0]?.note,
      });
      const after = await view(ctx, ops.cookie);
      expect(after.referrals.find((k) => k.uid === world.cook.kitchen.uid)?.referral).toEqual(
        again.json<ReferralResult>().referral,
      );
      expect(
        after.actions.some((x) => x.action === 'refer_kitchen' && x.targetId === world.cook.kitchen.uid),
      ).toBe(true);

      // The kitchen's record: its permit, documents with expiry dates, complaints, orders, the referral.
      const record = await send(
        ctx.app,
        'GET',
        `/api/operator/kitchens/${world.cook.kitchen.uid}/record`,
        ops.cookie,
      );
      expect(record.statusCode).toBe(200);
      expect(record.headers['content-type']).toBe('application/pdf');
      const pdf = await readPdf(record.rawPayload);
      expect(pdf.text).toContain(`Record of ${world.cook.kitchen.name}`);
      expect(pdf.text).toContain(`Permit number: ${PERMIT_NUMBER}, expires 2030-12-31`);
      expect(pdf.text).toContain('Food safety certificate: FSM-7731, expires 2030-12-31');
      expect(pdf.text).toContain(
        "Health authority: the county's environmental health department (Los Angeles County)",
      );
      expect(pdf.text).toContain('Food-safety complaints in the period (3)');
      expect(pdf.text).toContain('Stomach cramps that night');
      expect(pdf.text).toContain('Orders in the period (3)');
      expect(pdf.text).toContain(first.id);
      expect(pdf.text).toContain(third.id);
      expect(pdf.text).toContain(`by ${OPERATOR_EMAIL}`);
      expect(pdf.items.some((i) => i.text.startsWith('Permit and documents') && /Bold/.test(i.font))).toBe(
        true,
      );

      // A new complaint after the referral asks for another.
      await madeIll(ctx, world);
      const flaggedAgain = (await view(ctx, ops.cookie)).referrals.find(
        (k) => k.uid === world.cook.kitchen.uid,
      );
      expect(flaggedAgain).toMatchObject({ complaints: 4, referral: null });
      expect((await refer(ctx, world.cook.kitchen.uid, ops.cookie)).json<ReferralResult>().changed).toBe(
        true,
      );
      expect(await referralRows(ctx, world.cook.kitchen.uid)).toHaveLength(2);
    });

    it('refuses the record to anyone but an operator, and 404s for no such kitchen', async () => {
      const ctx = get();
      const world = await californianKitchen(ctx);
      const url = `/api/operator/kitchens/${world.cook.kitchen.uid}/record`;
      expect((await send(ctx.app, 'GET', url, world.cook.cookie)).statusCode).toBe(401);
      expect((await send(ctx.app, 'GET', url)).statusCode).toBe(401);
      const ops = await operator(ctx);
      const unknown = await send(ctx.app, 'GET', `/api/operator/kitchens/${randomUUID()}/record`, ops.cookie);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ field: 'uid' });
      const noKitchen = await refer(ctx, randomUUID(), ops.cookie);
      expect(noKitchen.statusCode).toBe(404);
      expect(noKitchen.json()).toMatchObject({ field: 'uid' });
      expect((await refer(ctx, 'not-a-kitchen', ops.cookie)).statusCode).toBe(400);
      // A kitchen with no complaint has a record all the same (an operator may look before anything is flagged).
      const record = await send(ctx.app, 'GET', url, ops.cookie);
      expect(record.statusCode).toBe(200);
      expect((await readPdf(record.rawPayload)).text).toContain('Food-safety complaints in the period (0)');
    });
  },
  { ...operatorEnv, GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
);
