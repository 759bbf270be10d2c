import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import type { KitchenRules } from '../../shared/jurisdictions.js';
import type { ModerationView } from '../../shared/moderation.js';
import { operatorActions } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { PERMIT_NUMBER, startCaliforniaGeocoder } from '../test/law.js';
import { OPERATOR_EMAIL, operatorEnv, send } from '../test/moderation.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

// Kitchens' addresses are placed by a local stand-in for Photon, which names their country, state and county: the
// address picks the rules (jurisdictions/us.yaml: Los Angeles County asks for a permit, Orange County lets no home
// kitchen sell).
const fake = await startCaliforniaGeocoder();
afterAll(() => fake.close());

let addressCounter = 0;

describeEachEngine(
  "a kitchen's listing under its place's rules: the operator's approval queue",
  (get) => {
    const operator = (ctx: TestContext) => signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
    const decide = async (ctx: TestContext, uid: string, body: unknown, cookie?: string) =>
      send(
        ctx.app,
        'POST',
        `/api/operator/kitchens/${uid}/listing`,
        cookie ?? (await operator(ctx)).cookie,
        body,
      );
    const listed = async (ctx: TestContext) =>
      (await ctx.app.inject('/api/kitchens')).json<{ uid: string }[]>().map((k) => k.uid);
    const searched = async (ctx: TestContext, name: string) =>
      (await ctx.app.inject(`/api/kitchens/search?q=${encodeURIComponent(name)}`))
        .json<{ uid: string }[]>()
        .map((k) => k.uid);
    const rules = async (ctx: TestContext, cookie: string) =>
      (await send(ctx.app, 'GET', '/api/kitchen/rules', cookie)).json<KitchenRules>();
    const order = async (ctx: TestContext, kitchenUid: string, dishId: string) => {
      const { cookie } = await signedIn(ctx, 'customer');
      return ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie },
        payload: { kitchenUid, itemIds: [dishId], address: '1 Road', idempotencyKey: randomUUID() },
        remoteAddress: `2001:db8::f:${(++addressCounter).toString(16)}`,
      });
    };
    const addPermit = (ctx: TestContext, cookie: string) =>
      send(ctx.app, 'POST', '/api/kitchen/documents', cookie, {
        kind: 'permit',
        number: PERMIT_NUMBER,
        expiresOn: '2030-12-31',
      });

    it('keeps a kitchen whose place asks for a permit off the lists and refusing orders until an operator approves it', async () => {
      const ctx = get();
      const name = `Casa ${randomUUID().slice(0, 8)}`;
      const cook = await buildKitchen(ctx, {
        name,
        address: '12 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      const dish = await buildMenuItem(ctx, cook.kitchen);
      expect((await rules(ctx, cook.cookie)).listing).toEqual({
        state: 'awaiting-approval',
        reason: '',
        decidedAt: null,
      });
      expect(await listed(ctx)).not.toContain(cook.kitchen.uid);
      expect(await searched(ctx, name)).not.toContain(cook.kitchen.uid);
      const refused = await order(ctx, cook.kitchen.uid, dish.id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'KITCHEN_SUSPENDED', field: 'kitchenUid' });

      // The operator's queue shows it with its papers.
      expect((await addPermit(ctx, cook.cookie)).statusCode).toBe(201);
      const ops = await operator(ctx);
      const view = (
        await send(ctx.app, 'GET', '/api/operator/moderation', ops.cookie)
      ).json<ModerationView>();
      expect(view.approvals.find((a) => a.uid === cook.kitchen.uid)).toMatchObject({
        name,
        state: 'awaiting-approval',
        place: 'Los Angeles County, California, US',
        documents: [{ kind: 'permit', number: PERMIT_NUMBER, holder: '', expiresOn: '2030-12-31' }],
      });

      const approved = await decide(ctx, cook.kitchen.uid, { decision: 'approve' }, ops.cookie);
      expect(approved.statusCode).toBe(200);
      expect(approved.json()).toEqual({ changed: true });
      expect((await rules(ctx, cook.cookie)).listing).toMatchObject({ state: 'listed', reason: '' });
      expect(await listed(ctx)).toContain(cook.kitchen.uid);
      expect(await searched(ctx, name)).toContain(cook.kitchen.uid);
      // In the operators' log, by whom.
      const logged = await ctx.database.db
        .select()
        .from(operatorActions)
        .where(eq(operatorActions.targetId, cook.kitchen.uid));
      expect(logged.map((a) => [a.action, a.operatorEmail])).toEqual([['approve_kitchen', OPERATOR_EMAIL]]);
      const after = (
        await send(ctx.app, 'GET', '/api/operator/moderation', ops.cookie)
      ).json<ModerationView>();
      expect(after.approvals.map((a) => a.uid)).not.toContain(cook.kitchen.uid);
      // Deciding again: nothing waits for a decision any more.
      const again = await decide(ctx, cook.kitchen.uid, { decision: 'approve' }, ops.cookie);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'NOT_AWAITING_APPROVAL', field: 'uid' });
    });

    it('asks for changes with a reason the cook reads, waits again once a paper is added, and may refuse', async () => {
      const ctx = get();
      const cook = await buildKitchen(ctx, {
        address: '3 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      const reason = 'The permit number does not match the county register';
      expect((await decide(ctx, cook.kitchen.uid, { decision: 'ask-changes', reason })).statusCode).toBe(200);
      expect((await rules(ctx, cook.cookie)).listing).toMatchObject({ state: 'changes-asked', reason });
      const ops = await operator(ctx);
      const view = (
        await send(ctx.app, 'GET', '/api/operator/moderation', ops.cookie)
      ).json<ModerationView>();
      expect(view.approvals.find((a) => a.uid === cook.kitchen.uid)).toMatchObject({
        state: 'changes-asked',
        reason,
      });
      expect((await addPermit(ctx, cook.cookie)).statusCode).toBe(201);
      expect((await rules(ctx, cook.cookie)).listing).toMatchObject({ state: 'awaiting-approval' });
      const refusal = 'Permit revoked by the county';
      expect((await decide(ctx, cook.kitchen.uid, { decision: 'refuse', reason: refusal })).statusCode).toBe(
        200,
      );
      expect((await rules(ctx, cook.cookie)).listing).toMatchObject({ state: 'refused', reason: refusal });
      expect(await listed(ctx)).not.toContain(cook.kitchen.uid);
      // A refusal can still be turned into an approval (the county reinstated the permit).
      expect((await decide(ctx, cook.kitchen.uid, { decision: 'approve' })).statusCode).toBe(200);
      expect(await listed(ctx)).toContain(cook.kitchen.uid);
    });

    it('lists a kitchen no permit is asked of at once, and never one where home kitchens may not sell', async () => {
      const ctx = get();
      const free = await buildKitchen(ctx, { address: 'Nowhere in particular' });
      expect((await rules(ctx, free.cookie)).listing.state).toBe('listed');
      expect(await listed(ctx)).toContain(free.kitchen.uid);
      const orange = await buildKitchen(ctx, { address: '9 Harbor Boulevard' });
      expect((await rules(ctx, orange.cookie)).listing.state).toBe('not-allowed');
      expect(await listed(ctx)).not.toContain(orange.kitchen.uid);
      const never = await decide(ctx, orange.kitchen.uid, { decision: 'approve' });
      expect(never.statusCode).toBe(409);
      expect(never.json()).toMatchObject({ code: 'NOT_AWAITING_APPROVAL' });
      // Moving to a place that asks for a permit: listed again only once approved there.
      const moved = await send(ctx.app, 'PATCH', '/api/kitchen', free.cookie, {
        address: '7 Sunset Boulevard',
      });
      expect(moved.statusCode).toBe(200);
      expect((await rules(ctx, free.cookie)).listing.state).toBe('awaiting-approval');
      expect(await listed(ctx)).not.toContain(free.kitchen.uid);
    });

    it('refuses a decision without a reason where one is needed, an unknown decision or kitchen, changing nothing', async () => {
      const ctx = get();
      const cook = await buildKitchen(ctx, {
        address: '5 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      for (const [body, field] of [
        [{ decision: 'ask-changes' }, 'reason'],
        [{ decision: 'refuse', reason: '   ' }, 'reason'],
        [{ decision: 'list-it' }, 'decision'],
        [{}, 'decision'],
        [{ decision: 'refuse', reason: 'x'.repeat(501) }, 'reason'],
      ] as const) {
        const res = await decide(ctx, cook.kitchen.uid, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json(), JSON.stringify(body)).toMatchObject({ field });
      }
      expect((await rules(ctx, cook.cookie)).listing.state).toBe('awaiting-approval');
      const unknown = await decide(ctx, randomUUID(), { decision: 'approve' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ field: 'uid' });
      const malformed = await decide(ctx, 'not-a-kitchen', { decision: 'approve' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ field: 'uid' });
      // Nobody but an operator decides (every role: the authorisation matrix).
      const own = await decide(ctx, cook.kitchen.uid, { decision: 'approve' }, cook.cookie);
      expect(own.statusCode).toBe(401);
      expect((await rules(ctx, cook.cookie)).listing.state).toBe('awaiting-approval');
    });

    it("shows an unlisted kitchen's menu and reviews to its cook and operators only, its picture and story to nobody", async () => {
      const ctx = get();
      const cook = await buildKitchen(ctx, {
        name: `Casa ${randomUUID().slice(0, 8)}`,
        address: '12 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
        about: 'Tamales from my grandmother',
      });
      const dish = await buildMenuItem(ctx, cook.kitchen, { item: 'Tamales' });
      const ops = await operator(ctx);
      const customer = await signedIn(ctx, 'customer');
      const uid = cook.kitchen.uid;
      const menuOf = (cookie?: string) => send(ctx.app, 'GET', `/api/kitchens/${uid}/menu`, cookie);
      const reviewsOf = (cookie?: string) => send(ctx.app, 'GET', `/api/kitchens/${uid}/reviews`, cookie);

      // Awaiting approval: the kitchen says it is not listed, and withholds its story.
      const kitchen = await send(ctx.app, 'GET', `/api/kitchens/${uid}`);
      expect(kitchen.statusCode).toBe(200);
      expect(kitchen.json()).toMatchObject({ uid, listed: false, about: '', imageLink: null, image: null });
      for (const cookie of [undefined, customer.cookie]) {
        for (const res of [await menuOf(cookie), await reviewsOf(cookie)]) {
          expect(res.statusCode).toBe(404);
          expect(res.json()).toMatchObject({
            message: 'This kitchen is not available: it is not listed on HomeCooked.',
          });
        }
      }
      for (const cookie of [cook.cookie, ops.cookie]) {
        const menu = await menuOf(cookie);
        expect(menu.statusCode).toBe(200);
        expect(menu.json<{ id: string }[]>().map((d) => d.id)).toEqual([dish.id]);
        expect((await reviewsOf(cookie)).statusCode).toBe(200);
      }

      // Refused: the same.
      expect(
        (await decide(ctx, uid, { decision: 'refuse', reason: 'No permit' }, ops.cookie)).statusCode,
      ).toBe(200);
      expect((await menuOf(customer.cookie)).statusCode).toBe(404);
      expect((await menuOf(cook.cookie)).statusCode).toBe(200);

      // Approved: everyone sees it all.
      expect((await decide(ctx, uid, { decision: 'approve' }, ops.cookie)).statusCode).toBe(200);
      expect((await send(ctx.app, 'GET', `/api/kitchens/${uid}`)).json()).toMatchObject({
        listed: true,
        about: 'Tamales from my grandmother',
      });
      expect((await menuOf(customer.cookie)).statusCode).toBe(200);
      expect((await reviewsOf()).statusCode).toBe(200);

      // Where home kitchens may not sell, nobody but its cook and operators sees its menu.
      const orange = await buildKitchen(ctx, {
        address: '3 Harbor Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      await buildMenuItem(ctx, orange.kitchen);
      const url = `/api/kitchens/${orange.kitchen.uid}/menu`;
      expect((await send(ctx.app, 'GET', `/api/kitchens/${orange.kitchen.uid}`)).json()).toMatchObject({
        listed: false,
      });
      expect((await send(ctx.app, 'GET', url, customer.cookie)).statusCode).toBe(404);
      expect((await send(ctx.app, 'GET', url, orange.cookie)).statusCode).toBe(200);
      expect((await send(ctx.app, 'GET', url, ops.cookie)).statusCode).toBe(200);
    });
  },
  { ...operatorEnv, GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
);
