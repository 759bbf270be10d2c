import { createECDH } from 'node:crypto';
import fc from 'fast-check';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import { beforeAll, expect, it } from 'vitest';
import {
  buildUser,
  describeEachEngine,
  sessionCookie,
  type TestContext,
} from '../../src/server/test/test-app.js';
import { fingerprintTables } from '../../src/server/test/fingerprint.js';
import { buildKitchen } from '../../src/server/test/builders.js';
import { localProvider, paidKitchen, placeOrder, sessionOf } from '../../src/server/test/payments-world.js';
import type { CustomerOrder } from '../../src/shared/orders.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

/** A push subscription's public key (a point of P-256), for the push device route's valid body. */
const DEVICE_KEY = (() => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return ecdh.getPublicKey().toString('base64url');
})();

/** The operator of this suite (OPERATOR_EMAILS of its app). */
const OPERATOR_EMAIL = 'hostile-ops@example.test';

/** Values that break careless code: wrong types, huge and odd strings, SQL and script fragments. */
const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ minLength: 3000, maxLength: 12000 }),
  fc.constantFrom(
    "'; drop table orders; --",
    "' or '1'='1",
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    '//evil.example/x.png',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\u202Eevil',
    '../../etc/passwd',
    '$1.00',
    '-1',
    '1e309',
    '12.345',
    'NaN',
    '   ',
    '00000000-0000-0000-0000-000000000000',
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 5 }),
  fc.array(fc.uuid(), { maxLength: 60 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

/**
 * A body: anything at all; an object with the route's fields (and extra ones) set to hostile values; or a valid
 * body with one or more fields swapped for hostile values (what reaches the database if validation is lax).
 */
const bodyFor = (fields: string[], valid: Record<string, unknown>) =>
  fc.oneof(
    fc
      .tuple(
        fc.subarray(fields, { minLength: 1 }),
        fc.array(hostileValue, { minLength: fields.length, maxLength: fields.length }),
      )
      .map(([chosen, values]) => ({ ...valid, ...Object.fromEntries(chosen.map((f, i) => [f, values[i]])) })),
    fc.anything(),
    fc.record(Object.fromEntries(fields.map((f) => [f, hostileValue])), { requiredKeys: [] }),
    fc
      .tuple(
        fc.record(Object.fromEntries(fields.map((f) => [f, hostileValue])), { requiredKeys: [] }),
        fc.dictionary(fc.string(), hostileValue, { maxKeys: 4 }),
      )
      .map(([a, b]) => ({ ...b, ...a })),
  );

const TABLES = [
  'users',
  'kitchens',
  'menu_items',
  'orders',
  'order_items',
  'order_events',
  'chat_messages',
  'reviews',
  'reports',
  'operator_actions',
  'ledger_entries',
];

/** A fingerprint of every table a write could touch (and `extra`): a refused call must leave it as it was. */
function fingerprint(ctx: TestContext, extra: readonly string[] = []): Promise<string> {
  return fingerprintTables(ctx.database.db, [...TABLES, ...extra]);
}

/** A body as a form posts it (`application/x-www-form-urlencoded`): each field's value as text. */
function formOf(body: unknown): string {
  if (typeof body !== 'object' || body === null) return String(body);
  const text = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  return new URLSearchParams(Object.entries(body).map(([key, value]) => [key, text(value)])).toString();
}

describeEachEngine(
  'hostile input on every route that writes',
  (get) => {
    let cookies: {
      owner: string;
      newOwner: string;
      customer: string;
      reviewer: string;
      operator: string;
      payoutOwner: string;
    };
    let ids: {
      /** A card order's payment page, and a card-paying kitchen's account (the local provider's /dev-pay pages). */
      sessionId: string;
      accountId: string;
      kitchenUid: string;
      itemId: string;
      orderId: string;
      deliveredId: string;
      messageId: string;
      reviewId: string;
      reportId: string;
    };
    const runs = () => (get().engine === 'pglite' ? 300 : 100);

    beforeAll(async () => {
      const ctx = get();
      const owner = await buildUser(ctx);
      const newOwner = await buildUser(ctx);
      const customer = await buildUser(ctx);
      const reviewer = await buildUser(ctx);
      const operator = await buildUser(ctx, { email: OPERATOR_EMAIL });
      cookies = {
        owner: await sessionCookie(ctx, owner, 'kitchen'),
        newOwner: await sessionCookie(ctx, newOwner, 'kitchen'),
        customer: await sessionCookie(ctx, customer, 'customer'),
        reviewer: await sessionCookie(ctx, reviewer, 'customer'),
        operator: await sessionCookie(ctx, operator, 'operator'),
        payoutOwner: (await buildKitchen(ctx, { name: 'Payouts' })).cookie,
      };
      const json = { 'content-type': 'application/json' };
      const kitchen = await ctx.app.inject({
        method: 'POST',
        url: '/api/kitchen',
        headers: { ...json, cookie: cookies.owner },
        payload: {
          name: 'Hostile',
          category: 'Indian',
          address: '1 Road',
          imageLink: 'https://img.example/k.png',
          hours: ALL_DAY_HOURS,
        },
      });
      expect(kitchen.statusCode).toBe(201);
      const item = await ctx.app.inject({
        method: 'POST',
        url: '/api/kitchen/menu',
        headers: { ...json, cookie: cookies.owner },
        payload: {
          item: 'Dal',
          imageLink: 'https://img.example/d.png',
          price: '9.50',
          wait: '20 min',
          allergenAnswers: answersWith(),
        },
      });
      expect(item.statusCode).toBe(201);
      const kitchenUid = kitchen.json<{ uid: string }>().uid;
      const itemId = item.json<{ id: string }>().id;
      // Card payments are on: this kitchen takes cash, so that its orders are paid as they were before cards.
      const cash = await ctx.app.inject({
        method: 'PUT',
        url: '/api/kitchen/payouts/cash',
        headers: { ...json, cookie: cookies.owner },
        payload: { acceptsCash: true },
      });
      expect(cash.statusCode).toBe(200);
      // A kitchen with payouts on, and a customer's card order at it awaiting payment on its page.
      const cards = await paidKitchen(ctx);
      const payer = await buildUser(ctx);
      const cardOrder = await placeOrder(
        ctx,
        await sessionCookie(ctx, payer, 'customer'),
        cards.cook.kitchen.uid,
        [cards.dal],
      );
      expect(cardOrder.statusCode).toBe(201);
      const order = await ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { ...json, cookie: cookies.customer },
        payload: { kitchenUid, itemIds: [itemId], address: '2 Street', idempotencyKey: 'hostile-setup-1' },
      });
      expect(order.statusCode).toBe(201);
      const orderId = order.json<{ id: string }>().id;
      // What the moderation routes act on: a message of the customer, a review of the order, the owner's report.
      const message = await ctx.app.inject({
        method: 'POST',
        url: '/api/chat',
        headers: { ...json, cookie: cookies.customer },
        payload: { text: 'hostile setup' },
      });
      expect(message.statusCode).toBe(201);
      // The reviewer's order, delivered and rated (the review route then answers 409 to a valid body, 400 to a
      // bad one; the cook's reply route and the operator's hide route have a review to act on).
      const delivered = await ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { ...json, cookie: cookies.reviewer },
        payload: { kitchenUid, itemIds: [itemId], address: '5 Street', idempotencyKey: 'hostile-setup-2' },
      });
      expect(delivered.statusCode).toBe(201);
      const deliveredId = delivered.json<{ id: string }>().id;
      for (const body of [
        { move: 'accept', readyInMinutes: 30 },
        { move: 'prepare' },
        { move: 'dispatch' },
        { move: 'deliver' },
      ]) {
        const moved = await ctx.app.inject({
          method: 'POST',
          url: `/api/kitchen/orders/${deliveredId}/moves`,
          headers: { ...json, cookie: cookies.owner },
          payload: body,
        });
        expect(moved.statusCode).toBe(200);
      }
      const review = await ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${deliveredId}/review`,
        headers: { ...json, cookie: cookies.reviewer },
        payload: { stars: 5 },
      });
      expect(review.statusCode).toBe(201);
      const report = await ctx.app.inject({
        method: 'POST',
        url: '/api/reports',
        headers: { ...json, cookie: cookies.newOwner },
        payload: { targetKind: 'chat_message', targetId: message.json<{ id: string }>().id, reason: 'Setup' },
      });
      expect(report.statusCode).toBe(201);
      ids = {
        sessionId: sessionOf(cardOrder.json<CustomerOrder>()),
        accountId: cards.account,
        kitchenUid,
        itemId,
        orderId,
        deliveredId,
        messageId: message.json<{ id: string }>().id,
        reviewId: review.json<{ id: string }>().id,
        reportId: report.json<{ id: string }>().id,
      };
    });

    const kitchenBody = {
      name: 'Hostile',
      category: 'Indian',
      address: '1 Road',
      imageLink: 'https://img.example/k.png',
      hours: ALL_DAY_HOURS,
    };
    const itemBody = {
      item: 'Dal',
      imageLink: 'https://img.example/d.png',
      price: '9.50',
      wait: '20 min',
      allergenAnswers: answersWith(),
    };
    let orderKey = 0;
    const kitchenFields = ['name', 'category', 'address', 'imageLink', 'timeZone', 'hours', 'about'];
    const itemFields = ['item', 'imageLink', 'price', 'wait', 'soldOut', 'portionsPerDay'];
    let eventKey = 0;
    const routes: {
      name: string;
      method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
      url: () => string;
      cookie: () => string;
      fields: string[];
      valid: () => Record<string, unknown>;
      /** Posted as a form (the /dev-pay pages), not as JSON. */
      form?: true;
      /** Signed as the payment provider signs its events: the body itself is what is under test. */
      signed?: true;
      /** Tables this route also writes, beyond every route's. */
      tables?: string[];
    }[] = [
      {
        name: 'POST /api/kitchen',
        method: 'POST',
        url: () => '/api/kitchen',
        cookie: () => cookies.newOwner,
        fields: kitchenFields,
        valid: () => kitchenBody,
      },
      {
        name: 'PATCH /api/kitchen',
        method: 'PATCH',
        url: () => '/api/kitchen',
        cookie: () => cookies.owner,
        fields: kitchenFields,
        valid: () => kitchenBody,
      },
      {
        name: 'POST /api/kitchen/pause',
        method: 'POST',
        url: () => '/api/kitchen/pause',
        cookie: () => cookies.owner,
        fields: ['paused', 'until'],
        valid: () => ({ paused: false }),
      },
      {
        name: 'POST /api/kitchen/menu',
        method: 'POST',
        url: () => '/api/kitchen/menu',
        cookie: () => cookies.owner,
        fields: itemFields,
        valid: () => itemBody,
      },
      {
        name: 'PATCH /api/kitchen/menu/:id',
        method: 'PATCH',
        url: () => `/api/kitchen/menu/${ids.itemId}`,
        cookie: () => cookies.owner,
        fields: itemFields,
        valid: () => itemBody,
      },
      {
        name: 'PATCH /api/kitchen/orders/:id',
        method: 'PATCH',
        url: () => `/api/kitchen/orders/${ids.orderId}`,
        cookie: () => cookies.owner,
        fields: ['status'],
        valid: () => ({ status: 'Preparing' }),
      },
      {
        name: 'POST /api/orders',
        method: 'POST',
        url: () => '/api/orders',
        cookie: () => cookies.customer,
        fields: ['kitchenUid', 'itemIds', 'address', 'idempotencyKey'],
        valid: () => ({
          kitchenUid: ids.kitchenUid,
          itemIds: [ids.itemId],
          address: '3 Lane',
          idempotencyKey: `hostile-${++orderKey}-key`,
        }),
      },
      {
        name: 'POST /api/kitchen/orders/:id/moves',
        method: 'POST',
        url: () => `/api/kitchen/orders/${ids.orderId}/moves`,
        cookie: () => cookies.owner,
        fields: ['move', 'readyInMinutes', 'reason'],
        valid: () => ({ move: 'accept', readyInMinutes: 30 }),
      },
      {
        name: 'POST /api/orders/:id/cancel',
        method: 'POST',
        url: () => `/api/orders/${ids.orderId}/cancel`,
        cookie: () => cookies.customer,
        fields: ['reason'],
        valid: () => ({ reason: 'Changed my mind' }),
      },
      {
        name: 'POST /api/chat',
        method: 'POST',
        url: () => '/api/chat',
        cookie: () => cookies.customer,
        fields: ['text', 'uid'],
        valid: () => ({ text: 'hello' }),
      },
      {
        name: 'POST /api/orders/:id/messages',
        method: 'POST',
        url: () => `/api/orders/${ids.orderId}/messages`,
        cookie: () => cookies.customer,
        fields: ['text', 'as'],
        valid: () => ({ text: 'No peanuts, please' }),
        tables: ['order_messages'],
      },
      {
        name: 'POST /api/notifications/push-subscriptions',
        method: 'POST',
        url: () => '/api/notifications/push-subscriptions',
        cookie: () => cookies.customer,
        fields: ['endpoint', 'keys', 'name', 'expirationTime'],
        valid: () => ({
          endpoint: 'https://fcm.googleapis.com/fcm/send/hostile-device',
          keys: { p256dh: DEVICE_KEY, auth: 'a'.repeat(22) },
        }),
        tables: ['push_subscriptions'],
      },
      {
        name: 'POST /api/orders/:id/review',
        method: 'POST',
        url: () => `/api/orders/${ids.deliveredId}/review`,
        cookie: () => cookies.reviewer,
        fields: ['stars', 'text'],
        valid: () => ({ stars: 4, text: 'Good' }),
      },
      {
        name: 'POST /api/orders/:id/problem',
        method: 'POST',
        url: () => `/api/orders/${ids.deliveredId}/problem`,
        cookie: () => cookies.reviewer,
        fields: ['reason', 'dishes', 'details', 'photoIds'],
        valid: () => ({ reason: 'missing', dishes: [{ item: 'Dal', priceCents: 950, quantity: 1 }] }),
        tables: ['problem_reports', 'problem_report_photos', 'reports'],
      },
      {
        name: 'POST /api/kitchen/reviews/:id/reply',
        method: 'POST',
        url: () => `/api/kitchen/reviews/${ids.reviewId}/reply`,
        cookie: () => cookies.owner,
        fields: ['reply'],
        valid: () => ({ reply: 'Thank you' }),
      },
      {
        name: 'POST /api/reports',
        method: 'POST',
        url: () => '/api/reports',
        cookie: () => cookies.customer,
        fields: ['targetKind', 'targetId', 'reason'],
        valid: () => ({ targetKind: 'kitchen', targetId: ids.kitchenUid, reason: 'Looks fake' }),
      },
      {
        name: 'PUT /api/kitchen/payouts/tips',
        method: 'PUT',
        url: () => '/api/kitchen/payouts/tips',
        cookie: () => cookies.payoutOwner,
        fields: ['acceptsTips'],
        valid: () => ({ acceptsTips: true }),
      },
      {
        name: 'PUT /api/kitchen/payouts/cash',
        method: 'PUT',
        url: () => '/api/kitchen/payouts/cash',
        cookie: () => cookies.payoutOwner,
        fields: ['acceptsCash'],
        valid: () => ({ acceptsCash: true }),
      },
      ...(['onboarding', 'refresh'] as const).map((path) => ({
        name: `POST /api/kitchen/payouts/${path}`,
        method: 'POST' as const,
        url: () => `/api/kitchen/payouts/${path}`,
        cookie: () => cookies.payoutOwner,
        fields: ['account', 'state', 'returnUrl'],
        valid: () => ({}),
      })),
      {
        name: 'POST /api/payments/webhook',
        method: 'POST',
        url: () => '/api/payments/webhook',
        cookie: () => '',
        fields: ['id', 'object', 'type', 'data'],
        // An event about the cash order (nothing for a card payment to change): a 200 that changes nothing.
        valid: () => ({
          id: `evt_hostile_${++eventKey}`,
          object: 'event',
          type: 'payment_intent.succeeded',
          data: {
            object: { object: 'payment_intent', id: 'pi_hostile', metadata: { orderId: ids.orderId } },
          },
        }),
        signed: true,
        tables: ['payment_events'],
      },
      {
        name: 'POST /dev-pay/checkout/:id',
        method: 'POST',
        url: () => `/dev-pay/checkout/${ids.sessionId}`,
        cookie: () => '',
        fields: ['card', 'expiry', 'cvc'],
        // The declined test card: the page stays open for the next body.
        valid: () => ({ card: '4000 0000 0000 0002', expiry: '12/40', cvc: '123' }),
        form: true,
      },
      {
        name: 'POST /dev-pay/checkout/:id/dispute/close',
        method: 'POST',
        url: () => `/dev-pay/checkout/${ids.sessionId}/dispute/close`,
        cookie: () => '',
        fields: ['outcome'],
        valid: () => ({ outcome: 'lost' }),
        form: true,
      },
      {
        name: 'POST /dev-pay/onboard/:id',
        method: 'POST',
        url: () => `/dev-pay/onboard/${ids.accountId}`,
        cookie: () => '',
        fields: ['return_url'],
        valid: () => ({ return_url: 'http://localhost:3000/KitchenMenu' }),
        form: true,
      },
      ...(
        [
          ['chat-messages/:id/hide', () => ids.messageId],
          ['reviews/:id/hide', () => ids.reviewId],
          ['reports/:id/close', () => ids.reportId],
          // Suspended, then lifted: the kitchen is back for whatever runs next.
          ['kitchens/:uid/suspend', () => ids.kitchenUid],
          ['kitchens/:uid/lift-suspension', () => ids.kitchenUid],
        ] as const
      ).map(([path, id]) => ({
        name: `POST /api/operator/${path}`,
        method: 'POST' as const,
        url: () => `/api/operator/${path.replace(/:id|:uid/, id())}`,
        cookie: () => cookies.operator,
        fields: ['note'],
        valid: () => ({ note: 'Checked' }),
      })),
    ];

    for (const route of routes) {
      it(`${route.name}: never a 5xx, never a partial write`, async () => {
        const ctx = get();
        // The database's fingerprint as a refusal left it (checked unchanged by it): the next case starts from it
        // rather than reading every table again. Anything else (an answer of 2xx, a failed check) reads afresh.
        let known: string | undefined;
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(
              bodyFor(route.fields, route.valid()),
              fc.string().map((raw) => ({ __raw: raw })),
            ),
            async (body) => {
              const before = known ?? (await fingerprint(ctx, route.tables));
              known = undefined;
              const raw = typeof body === 'object' && body !== null && '__raw' in body;
              const payload = raw
                ? String((body as { __raw: string }).__raw)
                : route.form
                  ? formOf(body)
                  : (JSON.stringify(body) ?? 'null');
              const cookie = route.cookie();
              const res = await ctx.app.inject({
                method: route.method,
                url: route.url(),
                headers: {
                  'content-type': route.form ? 'application/x-www-form-urlencoded' : 'application/json',
                  ...(cookie ? { cookie } : {}),
                  ...(route.signed ? { 'stripe-signature': localProvider(ctx).sign(payload) } : {}),
                },
                payload,
              });
              // What the provider sends after the answer (its events) has arrived before the next fingerprint.
              await localProvider(ctx).settled();
              expect(res.statusCode, res.body).toBeLessThan(500);
              if (res.statusCode >= 400) {
                const after = await fingerprint(ctx, route.tables);
                expect(after).toBe(before);
                known = after;
              }
            },
          ),
          {
            numRuns: runs(),
            // Every run, whatever the seed: each field of a valid body holding a NUL, which PostgreSQL text cannot.
            examples: route.fields.map((field): [unknown] => [{ ...route.valid(), [field]: 'a\u0000b' }]),
          },
        );
        // Bounded by the number of cases, not by time: a busy machine only makes it slower.
      }, 180_000);
    }

    it('path parameters and query strings: never a 5xx', async () => {
      const ctx = get();
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (text) => {
          const segment = encodeURIComponent(text);
          for (const [method, url, cookie] of [
            ['DELETE', `/api/kitchen/menu/${segment}`, cookies.owner],
            ['DELETE', `/api/kitchen/orders/${segment}`, cookies.owner],
            ['GET', `/api/kitchens/${segment}`, ''],
            ['GET', `/api/kitchens/${segment}/menu`, ''],
            ['GET', `/api/chat/history?before=${segment}`, cookies.customer],
            ['GET', `/api/orders/${segment}/messages`, cookies.customer],
            ['POST', `/api/orders/${segment}/messages`, cookies.customer],
            ['DELETE', `/api/notifications/push-subscriptions/${segment}`, cookies.customer],
            ['DELETE', `/api/notifications/push-subscriptions/${segment}?as=${segment}`, cookies.owner],
            ['GET', `/api/geocode?q=${segment}`, cookies.customer],
            ['GET', `/auth/customer/start?returnTo=${segment}`, ''],
            ['GET', `/api/kitchens/${segment}/reviews`, ''],
            ['POST', `/api/orders/${segment}/review`, cookies.customer],
            ['POST', `/api/kitchen/reviews/${segment}/reply`, cookies.owner],
            ['POST', `/api/operator/chat-messages/${segment}/hide`, cookies.operator],
            ['POST', `/api/operator/kitchens/${segment}/suspend`, cookies.operator],
            ['POST', `/api/operator/reports/${segment}/close`, cookies.operator],
            ['GET', `/api/kitchens/${segment}/payments`, ''],
            ['GET', `/dev-pay/checkout/${segment}`, ''],
            ['POST', `/dev-pay/checkout/${segment}`, ''],
            ['POST', `/dev-pay/checkout/${segment}/authenticate`, ''],
            ['POST', `/dev-pay/checkout/${segment}/dispute`, ''],
            ['POST', `/dev-pay/checkout/${segment}/dispute/close`, ''],
            ['POST', `/api/orders/${segment}/problem`, cookies.reviewer],
            ['GET', `/dev-pay/onboard/${segment}?return_url=${segment}`, ''],
            ['POST', `/dev-pay/onboard/${segment}`, ''],
          ] as const) {
            const res = await ctx.app.inject({ method, url, headers: cookie ? { cookie } : {} });
            expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(500);
          }
        }),
        { numRuns: get().engine === 'pglite' ? 300 : 100 },
      );
    }, 180_000);
  },
  // Card payments on, through the local provider: its routes (the webhook, payouts, /dev-pay) are hostile-tested too.
  { OPERATOR_EMAILS: OPERATOR_EMAIL, PAYMENTS: 'local' },
);
