import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import type { KitchenRules, RuleOverride } from '../../shared/jurisdictions.js';
import { operatorActions } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { addPapers, startCaliforniaGeocoder } from '../test/law.js';
import { OPERATOR_EMAIL, operatorEnv, send } from '../test/moderation.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

// Kitchens on Sunset Boulevard are in Los Angeles County (a local stand-in for Photon places them): its profile
// (jurisdictions/us.yaml, 'us/ca/los-angeles') caps meals at 30 a day and 90 a week.
const fake = await startCaliforniaGeocoder();
afterAll(() => fake.close());

const LOS_ANGELES = 'us/ca/los-angeles';
let addressCounter = 0;

describeEachEngine(
  "operators' overrides of a profile's values, for a jurisdiction or one kitchen",
  (get) => {
    const operator = (ctx: TestContext) => signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
    const override = (ctx: TestContext, cookie: string | undefined, body: unknown) =>
      send(ctx.app, 'POST', '/api/operator/rule-overrides', cookie, body);
    const rules = async (ctx: TestContext, cookie: string) =>
      (await send(ctx.app, 'GET', '/api/kitchen/rules', cookie)).json<KitchenRules>();
    async function californianKitchen(ctx: TestContext) {
      const cook = await buildKitchen(ctx, {
        name: `Casa ${randomUUID().slice(0, 8)}`,
        address: '12 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      await addPapers(ctx, cook);
      const dish = await buildMenuItem(ctx, cook.kitchen, { item: 'Tamales' });
      return { cook, dish };
    }
    const order = async (ctx: TestContext, kitchenUid: string, dishId: string) => {
      const { cookie } = await signedIn(ctx, 'customer');
      return ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie },
        payload: { kitchenUid, itemIds: [dishId], address: '1 Road', idempotencyKey: randomUUID() },
        remoteAddress: `2001:db8::d:${(++addressCounter).toString(16)}`,
      });
    };

    it('overrides meals a day for a county, then for one kitchen, with who and why; orders are capped by them', async () => {
      const ctx = get();
      const ops = await operator(ctx);
      const a = await californianKitchen(ctx);
      const b = await californianKitchen(ctx);
      expect((await rules(ctx, a.cook.cookie)).profile.rules.caps.mealsPerDay).toBe(30);

      // The county's meals a day, lowered for every kitchen in it.
      const county = await override(ctx, ops.cookie, {
        scope: 'profile',
        target: LOS_ANGELES,
        key: 'mealsPerDay',
        value: 2,
        reason: 'County order 2026-14 during an outbreak',
      });
      expect(county.statusCode, county.body).toBe(201);
      expect(county.json<RuleOverride>()).toMatchObject({
        scope: 'profile',
        target: LOS_ANGELES,
        key: 'mealsPerDay',
        value: 2,
        operatorEmail: OPERATOR_EMAIL,
      });
      const logged = await ctx.database.db
        .select()
        .from(operatorActions)
        .where(
          and(eq(operatorActions.action, 'override_rule'), eq(operatorActions.operatorEmail, OPERATOR_EMAIL)),
        );
      // The log keeps the operator's own words; the value and its place are on 'Rules and fees', translated.
      expect(logged.map((r) => r.note)).toContain('County order 2026-14 during an outbreak');
      for (const cook of [a.cook, b.cook]) {
        const seen = await rules(ctx, cook.cookie);
        expect(seen.profile.rules.caps).toMatchObject({ mealsPerDay: 2, mealsPerWeek: 90 });
        expect(seen.overrides).toEqual([county.json()]);
      }
      expect((await order(ctx, a.cook.kitchen.uid, a.dish.id)).statusCode).toBe(201);
      expect((await order(ctx, a.cook.kitchen.uid, a.dish.id)).statusCode).toBe(201);
      const third = await order(ctx, a.cook.kitchen.uid, a.dish.id);
      expect(third.statusCode).toBe(409);
      expect(third.json()).toMatchObject({ code: 'MEAL_CAP_REACHED' });

      // One kitchen's own override goes over its county's, and no other kitchen's.
      const own = await override(ctx, ops.cookie, {
        scope: 'kitchen',
        target: a.cook.kitchen.uid,
        key: 'mealsPerDay',
        value: 3,
        reason: 'Inspected 2026-11-20: a second kitchen room',
      });
      expect(own.statusCode, own.body).toBe(201);
      const seenA = await rules(ctx, a.cook.cookie);
      expect(seenA.profile.rules.caps.mealsPerDay).toBe(3);
      expect(seenA.overrides.map((o) => [o.scope, o.value])).toEqual([
        ['profile', 2],
        ['kitchen', 3],
      ]);
      expect((await rules(ctx, b.cook.cookie)).profile.rules.caps.mealsPerDay).toBe(2);
      expect((await order(ctx, a.cook.kitchen.uid, a.dish.id)).statusCode).toBe(201);
      expect((await order(ctx, a.cook.kitchen.uid, a.dish.id)).statusCode).toBe(409);
      const logs = await ctx.database.db
        .select()
        .from(operatorActions)
        .where(
          and(eq(operatorActions.action, 'override_rule'), eq(operatorActions.targetId, a.cook.kitchen.uid)),
        );
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ targetKind: 'kitchen', operatorEmail: OPERATOR_EMAIL });

      // A second override of the same key replaces it (both in the log); null lifts the cap.
      const lifted = await override(ctx, ops.cookie, {
        scope: 'profile',
        target: LOS_ANGELES,
        key: 'mealsPerDay',
        value: null,
        reason: 'Outbreak over',
      });
      expect(lifted.statusCode).toBe(201);
      const seenB = await rules(ctx, b.cook.cookie);
      expect(seenB.profile.rules.caps.mealsPerDay).toBeNull();
      expect(seenB.overrides).toEqual([lifted.json()]);
    });

    it('refuses anyone but an operator, and bad input naming the field, changing nothing', async () => {
      const ctx = get();
      const ops = await operator(ctx);
      const { cook } = await californianKitchen(ctx);
      const body = { scope: 'profile', target: LOS_ANGELES, key: 'mealsPerWeek', value: 60, reason: 'Why' };
      expect((await override(ctx, cook.cookie, body)).statusCode).toBe(401);
      expect((await override(ctx, undefined, body)).statusCode).toBe(401);
      const cases: [unknown, number, string][] = [
        [{ ...body, target: 'us/ca/nowhere' }, 404, 'target'],
        [{ ...body, scope: 'kitchen', target: 'not-a-kitchen' }, 400, 'target'],
        [{ ...body, scope: 'kitchen', target: randomUUID() }, 404, 'target'],
        [{ ...body, reason: '  ' }, 400, 'reason'],
        [{ ...body, value: 0 }, 400, 'value'],
        [{ ...body, value: 1.5 }, 400, 'value'],
        [{ ...body, key: 'sellingAllowed' }, 400, 'key'],
        [{ ...body, scope: 'state' }, 400, 'scope'],
      ];
      for (const [input, status, field] of cases) {
        const res = await override(ctx, ops.cookie, input);
        expect(res.statusCode, JSON.stringify(input)).toBe(status);
        expect(res.json()).toMatchObject({ field });
      }
      expect((await rules(ctx, cook.cookie)).profile.rules.caps.mealsPerWeek).toBe(90);
    });
  },
  { ...operatorEnv, GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
);
