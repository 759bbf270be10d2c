import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  NOTICE_AUDIENCE,
  NOTICE_KINDS,
  NOTICE_LABELS,
  type NoticeKind,
  type NotificationSettings,
  ALWAYS_EMAILED,
} from '../../../shared/notifications.js';
import { kitchens, notificationSettings, pushSubscriptions } from '../../db/schema.js';
import { buildKitchen } from '../../test/builders.js';
import { describeEachEngine, sessionCookie, signedIn, type TestContext } from '../../test/test-app.js';
import { NEW_ORDERS_LOCKED } from './settings-routes.js';

const OPERATOR_EMAIL = 'settings-operator@example.test';

const COOK_KINDS = NOTICE_KINDS.filter((kind) => NOTICE_AUDIENCE[kind] === 'kitchen');
const CUSTOMER_KINDS = NOTICE_KINDS.filter((kind) => NOTICE_AUDIENCE[kind] === 'customer');

/** Every kind of `kinds` on, none locked but `locked` and those the law asks for (ALWAYS_EMAILED). */
const allOn = (kinds: readonly NoticeKind[], locked: NoticeKind[] = []) =>
  kinds.map((kind) => ({
    kind,
    label: NOTICE_LABELS[kind],
    email: true,
    locked: locked.includes(kind) || ALWAYS_EMAILED.includes(kind),
  }));

const settingOf = (settings: NotificationSettings, kind: NoticeKind) =>
  settings.email.find((setting) => setting.kind === kind);

/** A device of `userId` that gets pushes, as the push routes would store it. */
async function addDevice(ctx: TestContext, userId: string, name = 'Firefox on Linux') {
  const [row] = await ctx.database.db
    .insert(pushSubscriptions)
    .values({
      userId,
      endpoint: `https://push.example.test/${randomUUID()}`,
      p256dh: 'B'.repeat(87),
      auth: 'a'.repeat(22),
      name,
    })
    .returning();
  if (!row) throw new Error('no device');
  return row;
}

const rowsOf = (ctx: TestContext, userId: string) =>
  ctx.database.db
    .select({ kind: notificationSettings.kind, email: notificationSettings.email })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));

describeEachEngine(
  "a person's notification settings: /api/notifications/settings",
  (get) => {
    const read = (cookie?: string, query = '') =>
      get().app.inject({ url: `/api/notifications/settings${query}`, headers: cookie ? { cookie } : {} });
    const save = (body: unknown, cookie?: string, query = '') =>
      get().app.inject({
        method: 'PUT',
        url: `/api/notifications/settings/email${query}`,
        payload: body as object,
        headers: cookie ? { cookie } : {},
      });
    const vapidKey = () =>
      (get().app.notices as TestContext['app']['notices'] | undefined)?.pusher?.publicKey ?? null;

    describe('defaults', () => {
      it("a cook has every cook's kind on, the new-order email locked while the kitchen takes orders", async () => {
        const { cookie } = await buildKitchen(get());
        const res = await read(cookie);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.json()).toEqual({
          email: allOn(COOK_KINDS, ['order-new']),
          devices: [],
          vapidPublicKey: vapidKey(),
        });
        expect(COOK_KINDS).toEqual([
          'order-new',
          'order-unanswered',
          'order-cancelled-by-customer',
          'review-new',
          'reports',
          'document-expiring',
          'helper-card-due',
          'fee-change',
          'order-problem',
        ]);
      });

      it("a customer has every customer's kind on, none locked", async () => {
        const { cookie } = await signedIn(get(), 'customer');
        const res = await read(cookie);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ email: allOn(CUSTOMER_KINDS), devices: [], vapidPublicKey: vapidKey() });
      });

      it('a cook who has not registered a kitchen yet takes no orders: nothing is locked', async () => {
        const { cookie } = await signedIn(get(), 'kitchen');
        expect((await read(cookie)).json<NotificationSettings>().email).toEqual(allOn(COOK_KINDS));
      });
    });

    describe('turning an email off and on', () => {
      it('keeps it for the person and the kind only, and answers the settings as they now are', async () => {
        const ctx = get();
        const mine = await buildKitchen(ctx);
        const other = await buildKitchen(ctx);
        const off = await save({ kind: 'review-new', email: false }, mine.cookie);
        expect(off.statusCode, off.body).toBe(200);
        const expected = allOn(COOK_KINDS, ['order-new']).map((s) =>
          s.kind === 'review-new' ? { ...s, email: false } : s,
        );
        expect(off.json<NotificationSettings>().email).toEqual(expected);
        expect((await read(mine.cookie)).json<NotificationSettings>().email).toEqual(expected);
        expect(await rowsOf(ctx, mine.user.id)).toEqual([{ kind: 'review-new', email: false }]);
        // Someone else's stay as they were.
        expect((await read(other.cookie)).json<NotificationSettings>().email).toEqual(
          allOn(COOK_KINDS, ['order-new']),
        );

        // Twice is the same; then on again.
        expect((await save({ kind: 'review-new', email: false }, mine.cookie)).statusCode).toBe(200);
        const on = await save({ kind: 'review-new', email: true }, mine.cookie);
        expect(on.statusCode, on.body).toBe(200);
        expect(on.json<NotificationSettings>().email).toEqual(allOn(COOK_KINDS, ['order-new']));
        expect(await rowsOf(ctx, mine.user.id)).toEqual([{ kind: 'review-new', email: true }]);
      });

      it("a customer turns 'Your order on its way' off", async () => {
        const { cookie, user } = await signedIn(get(), 'customer');
        const res = await save({ kind: 'order-dispatched', email: false }, cookie);
        expect(res.statusCode, res.body).toBe(200);
        expect(settingOf(res.json(), 'order-dispatched')).toEqual({
          kind: 'order-dispatched',
          label: 'Your order on its way',
          email: false,
          locked: false,
        });
        expect(await rowsOf(get(), user.id)).toEqual([{ kind: 'order-dispatched', email: false }]);
      });
    });

    describe("the cook's new-order email", () => {
      it('cannot be turned off while the kitchen takes orders and no device gets pushes; can once one does', async () => {
        const ctx = get();
        const { cookie, user } = await buildKitchen(ctx);
        const refused = await save({ kind: 'order-new', email: false }, cookie);
        expect(refused.statusCode, refused.body).toBe(409);
        expect(refused.json()).toMatchObject({ message: NEW_ORDERS_LOCKED, field: 'email' });
        expect(NEW_ORDERS_LOCKED).toBe(
          'Your new-order emails stay on while your kitchen takes orders and you have no device with push notifications',
        );
        expect(await rowsOf(ctx, user.id)).toEqual([]);
        // Turning it on is no change, and allowed.
        expect((await save({ kind: 'order-new', email: true }, cookie)).statusCode).toBe(200);

        const device = await addDevice(ctx, user.id);
        const withDevice = (await read(cookie)).json<NotificationSettings>();
        expect(settingOf(withDevice, 'order-new')).toMatchObject({ email: true, locked: false });
        expect(withDevice.devices).toEqual([
          { id: device.id, name: 'Firefox on Linux', createdAt: device.createdAt.toISOString() },
        ]);
        const off = await save({ kind: 'order-new', email: false }, cookie);
        expect(off.statusCode, off.body).toBe(200);
        expect(settingOf(off.json(), 'order-new')).toMatchObject({ email: false, locked: false });

        // The device removed: locked again, and on (the worker emails a cook with no device whatever the row says).
        await ctx.database.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
        expect(settingOf((await read(cookie)).json(), 'order-new')).toMatchObject({
          email: true,
          locked: true,
        });
        expect(await rowsOf(ctx, user.id)).toEqual([{ kind: 'order-new', email: false }]);
      });

      it('is not locked while the kitchen is paused or suspended; locked again once a pause has ended', async () => {
        const ctx = get();
        const { cookie, user } = await buildKitchen(ctx);
        const setKitchen = (values: Partial<typeof kitchens.$inferInsert>) =>
          ctx.database.db.update(kitchens).set(values).where(eq(kitchens.ownerId, user.id));

        await setKitchen({ pausedAt: new Date(), pausedUntil: null });
        expect(settingOf((await read(cookie)).json(), 'order-new')).toMatchObject({
          email: true,
          locked: false,
        });
        const off = await save({ kind: 'order-new', email: false }, cookie);
        expect(off.statusCode, off.body).toBe(200);
        expect(settingOf(off.json(), 'order-new')).toMatchObject({ email: false, locked: false });

        // Paused until a moment already past: taking orders again.
        await setKitchen({ pausedUntil: new Date(Date.now() - 60_000) });
        expect(settingOf((await read(cookie)).json(), 'order-new')).toMatchObject({
          email: true,
          locked: true,
        });
        expect((await save({ kind: 'order-new', email: false }, cookie)).statusCode).toBe(409);

        await setKitchen({ pausedAt: null, pausedUntil: null, suspendedAt: new Date() });
        expect(settingOf((await read(cookie)).json(), 'order-new')).toMatchObject({
          email: false,
          locked: false,
        });
      });
    });

    describe('who may', () => {
      it("refuses, naming kind, a kind of the other role's", async () => {
        const cook = await buildKitchen(get());
        const customer = await signedIn(get(), 'customer');
        const asCook = await save({ kind: 'order-accepted', email: false }, cook.cookie);
        expect(asCook.statusCode, asCook.body).toBe(400);
        expect(asCook.json()).toMatchObject({
          field: 'kind',
          message: "Kind must be one of the cook's notification kinds",
        });
        const asCustomer = await save({ kind: 'review-new', email: false }, customer.cookie);
        expect(asCustomer.statusCode, asCustomer.body).toBe(400);
        expect(asCustomer.json()).toMatchObject({
          field: 'kind',
          message: "Kind must be one of the customer's notification kinds",
        });
        expect(await rowsOf(get(), cook.user.id)).toEqual([]);
        expect(await rowsOf(get(), customer.user.id)).toEqual([]);
      });

      it('one browser holding both sessions: the kitchen by default, the customer ?as=customer', async () => {
        const ctx = get();
        const { cookie: kitchenCookie, user } = await buildKitchen(ctx);
        const both = `${kitchenCookie}; ${await sessionCookie(ctx, user, 'customer')}`;
        expect((await read(both)).json<NotificationSettings>().email.map((s) => s.kind)).toEqual(COOK_KINDS);
        expect(
          (await read(both, '?as=kitchen')).json<NotificationSettings>().email.map((s) => s.kind),
        ).toEqual(COOK_KINDS);
        expect(
          (await read(both, '?as=customer')).json<NotificationSettings>().email.map((s) => s.kind),
        ).toEqual(CUSTOMER_KINDS);
        const res = await save({ kind: 'order-delivered', email: false }, both, '?as=customer');
        expect(res.statusCode, res.body).toBe(200);
        expect(settingOf(res.json(), 'order-delivered')).toMatchObject({ email: false });
        // Without ?as, the kitchen's: a customer's kind is not of it.
        expect((await save({ kind: 'order-delivered', email: true }, both)).statusCode).toBe(400);

        // ?as names a session the browser does not hold: 401.
        const customerOnly = await signedIn(ctx, 'customer');
        expect((await read(customerOnly.cookie, '?as=kitchen')).statusCode).toBe(401);
        expect((await read(kitchenCookie, '?as=customer')).statusCode).toBe(401);
        expect(
          (await save({ kind: 'order-new', email: true }, customerOnly.cookie, '?as=kitchen')).statusCode,
        ).toBe(401);
      });

      it('refuses the signed-out and operators (no party to any notice), changing nothing', async () => {
        const ctx = get();
        const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
        for (const cookie of [undefined, operator.cookie]) {
          expect((await read(cookie)).statusCode).toBe(401);
          expect((await save({ kind: 'order-accepted', email: false }, cookie)).statusCode).toBe(401);
          expect((await save({ kind: 'order-new', email: false }, cookie, '?as=kitchen')).statusCode).toBe(
            401,
          );
        }
        expect(await rowsOf(ctx, operator.user.id)).toEqual([]);
      });

      it('refuses bad input by field', async () => {
        const { cookie, user } = await signedIn(get(), 'customer');
        const cases: [unknown, string, string][] = [
          [{ kind: 'order-lost', email: false }, '', 'kind'],
          [{ email: false }, '', 'kind'],
          [{ kind: 'order-accepted', email: 'no' }, '', 'email'],
          [{ kind: 'order-accepted' }, '', 'email'],
          [{ kind: 'order-accepted', email: false }, '?as=operator', 'as'],
        ];
        for (const [body, query, field] of cases) {
          const res = await save(body, cookie, query);
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json<{ field?: string }>().field, res.body).toBe(field);
        }
        expect((await read(cookie, '?as=everyone')).statusCode).toBe(400);
        expect(await rowsOf(get(), user.id)).toEqual([]);
        // The kind check is the database's too.
        await expect(
          get().database.db.execute(
            sql`insert into notification_settings (user_id, kind, email) values (${user.id}, 'order-lost', false)`,
          ),
        ).rejects.toThrow();
        expect(await rowsOf(get(), user.id)).toEqual([]);
      });
    });
  },
  { OPERATOR_EMAILS: OPERATOR_EMAIL },
);
