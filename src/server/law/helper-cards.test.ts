import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import {
  DOCUMENTS_NOT_IN_FORCE,
  type KitchenDocuments,
  type KitchenHelper,
} from '../../shared/kitchen-documents.js';
import { notificationOutbox } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { renderNotice } from '../notifications/render.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { addPapers, startCaliforniaGeocoder } from '../test/law.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { sendHelperCardReminders } from './document-reminders.js';

const fake = await startCaliforniaGeocoder();
afterAll(() => fake.close());

/** Noon in Los Angeles (UTC-8 in winter) on `day`. */
const noonIn = (day: string) => Date.parse(`${day}T20:00:00Z`);
const fakeClock = new FakeClock();
let now = noonIn('2026-11-24');
const clock: Clock = {
  now: () => now,
  sleep: (ms) => fakeClock.sleep(ms),
  timeout: (ms) => fakeClock.timeout(ms),
};

let addressCounter = 0;

describeEachEngine(
  "helpers' food handler cards within the profile's days: the deadline, reminders, the kitchen paused past it",
  (get) => {
    const call = (
      ctx: TestContext,
      cookie: string | undefined,
      method: 'GET' | 'POST' | 'DELETE',
      url: string,
      payload?: object,
    ) => ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

    it('gives each helper the day their card is due (30 days of hire in California, with the law), reminds 30, 7 and 1 days before, pauses the day after, resumes when it is added', async () => {
      const ctx = get();
      now = noonIn('2026-11-24');
      const cook = await buildKitchen(ctx, {
        address: '12 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      const { kitchen, cookie } = cook;
      await addPapers(ctx, cook);
      const dish = await buildMenuItem(ctx, kitchen, { price: '10.00' });
      const order = async () => {
        const { cookie: customer } = await signedIn(ctx, 'customer');
        return ctx.app.inject({
          method: 'POST',
          url: '/api/orders',
          headers: { cookie: customer },
          payload: {
            kitchenUid: kitchen.uid,
            itemIds: [dish.id],
            address: '1 Road',
            idempotencyKey: randomUUID(),
          },
          remoteAddress: `2001:db8::f:${(++addressCounter).toString(16)}`,
        });
      };
      const documents = async () =>
        (await call(ctx, cookie, 'GET', '/api/kitchen/documents')).json<KitchenDocuments>();

      // The rule, from the profile's data with its source.
      expect((await documents()).helperCard).toEqual({
        name: 'Food handler card',
        withinDays: 30,
        source: {
          title: 'California Health and Safety Code §113948 (food handler cards)',
          url: expect.stringMatching(/^https:\/\/leginfo\.legislature\.ca\.gov\/.*113948/),
        },
      });
      const added = await call(ctx, cookie, 'POST', '/api/kitchen/helpers', {
        name: 'Rosa',
        startedOn: '2026-11-24',
      });
      expect(added.statusCode, added.body).toBe(201);
      const rosa = added.json<KitchenHelper>();
      expect(rosa).toEqual({
        id: rosa.id,
        name: 'Rosa',
        startedOn: '2026-11-24',
        dueOn: '2026-12-24',
        card: null,
      });
      expect((await documents()).helpers).toEqual([rosa]);

      const reminders = async () =>
        (
          await ctx.database.db
            .select({ key: notificationOutbox.key })
            .from(notificationOutbox)
            .where(
              and(
                eq(notificationOutbox.recipientId, kitchen.uid),
                eq(notificationOutbox.kind, 'helper-card-due'),
              ),
            )
        )
          .map((r) => Number(r.key.split(':')[2]))
          .sort((a, b) => b - a);
      const sweepAt = async (day: string) => {
        now = noonIn(day);
        await sendHelperCardReminders(ctx.app);
        await sendHelperCardReminders(ctx.app); // twice: each reminder is told once however often it is found
        return reminders();
      };
      expect(await sweepAt('2026-11-24')).toEqual([30]);
      expect(await sweepAt('2026-12-10')).toEqual([30]);
      expect(await sweepAt('2026-12-17')).toEqual([30, 7]);
      expect(await sweepAt('2026-12-23')).toEqual([30, 7, 1]);
      const [row] = await ctx.database.db
        .select()
        .from(notificationOutbox)
        .where(eq(notificationOutbox.key, `helper-card:${rosa.id}:1:${kitchen.uid}`));
      const rendered = await renderNotice(
        ctx.database.db,
        row!,
        ctx.config.publicUrl,
        new Date(now),
        undefined,
        { jurisdictions: ctx.app.jurisdictions },
      );
      expect(rendered).toMatchObject({
        subject: 'Rosa’s food handler card is due tomorrow',
        path: '/KitchenRules',
      });
      expect(rendered?.text).toContain('Add Rosa’s food handler card by Dec 24, 2026');

      // Its last day (in the kitchen's zone): orders still taken. The day after: paused, with the reason.
      now = Date.parse('2026-12-25T07:59:00Z'); // 23:59 on 24 December in Los Angeles
      expect((await order()).statusCode).toBe(201);
      expect((await documents()).pause).toBeNull();
      now = Date.parse('2026-12-25T08:00:00Z');
      const refused = await order();
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        code: DOCUMENTS_NOT_IN_FORCE,
        field: 'kitchenUid',
        message: `${kitchen.name} cannot take orders until a helper’s food handler card is added.`,
      });
      expect((await documents()).pause).toEqual({
        kind: 'food-handler-card',
        expiredOn: null,
        holder: 'Rosa',
        dueOn: '2026-12-24',
      });
      expect(await sweepAt('2026-12-25')).toEqual([30, 7, 1]); // nothing more once it is overdue

      // Her card added (her name as typed on it, in other case): orders again, and the reminder is no longer told.
      const card = await call(ctx, cookie, 'POST', '/api/kitchen/documents', {
        kind: 'food-handler-card',
        number: 'FH-3310',
        holder: 'rosa ',
        expiresOn: '2029-12-24',
      });
      expect(card.statusCode).toBe(201);
      const after = await documents();
      expect(after.pause).toBeNull();
      expect(after.helpers).toEqual([{ ...rosa, card: { number: 'FH-3310', expiresOn: '2029-12-24' } }]);
      expect((await order()).statusCode).toBe(201);
      expect(
        await renderNotice(ctx.database.db, row!, ctx.config.publicUrl, new Date(now), undefined, {
          jurisdictions: ctx.app.jurisdictions,
        }),
      ).toBeNull();

      // A helper long overdue pauses it again; removed (they left), the pause lifts.
      const sam = (
        await call(ctx, cookie, 'POST', '/api/kitchen/helpers', { name: 'Sam', startedOn: '2026-10-01' })
      ).json<KitchenHelper>();
      expect(sam.dueOn).toBe('2026-10-31');
      expect((await documents()).pause).toMatchObject({ holder: 'Sam', dueOn: '2026-10-31' });
      expect((await order()).statusCode).toBe(409);
      expect((await call(ctx, cookie, 'DELETE', `/api/kitchen/helpers/${sam.id}`)).statusCode).toBe(204);
      expect((await documents()).pause).toBeNull();
      expect((await order()).statusCode).toBe(201);
    });

    it('asks nothing of helpers where the profile does not: no day due, no pause, no reminder', async () => {
      const ctx = get();
      now = noonIn('2026-11-24');
      const { cookie } = await buildKitchen(ctx);
      const added = await call(ctx, cookie, 'POST', '/api/kitchen/helpers', {
        name: 'Ana',
        startedOn: '2025-01-01',
      });
      expect(added.json<KitchenHelper>()).toMatchObject({ name: 'Ana', dueOn: null, card: null });
      const documents = (await call(ctx, cookie, 'GET', '/api/kitchen/documents')).json<KitchenDocuments>();
      expect(documents).toMatchObject({ helperCard: null, pause: null });
      expect(await sendHelperCardReminders(ctx.app)).toBe(0);
    });

    it('refuses a helper without a name or start, a second by the same name, and another kitchen’s helper, naming the field', async () => {
      const ctx = get();
      now = noonIn('2026-11-24');
      const { cookie } = await buildKitchen(ctx);
      for (const [payload, field] of [
        [{ name: '', startedOn: '2026-11-01' }, 'name'],
        [{ name: 'Ana', startedOn: '2026-13-01x' }, 'startedOn'],
        [{ name: 'Ana' }, 'startedOn'],
        [{ name: 'x'.repeat(101), startedOn: '2026-11-01' }, 'name'],
      ] as const) {
        const res = await call(ctx, cookie, 'POST', '/api/kitchen/helpers', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ field });
      }
      const ana = await call(ctx, cookie, 'POST', '/api/kitchen/helpers', {
        name: 'Ana',
        startedOn: '2026-11-01',
      });
      expect(ana.statusCode).toBe(201);
      const again = await call(ctx, cookie, 'POST', '/api/kitchen/helpers', {
        name: ' ana',
        startedOn: '2026-11-02',
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ field: 'name' });
      const other = await buildKitchen(ctx);
      const id = ana.json<KitchenHelper>().id;
      expect((await call(ctx, other.cookie, 'DELETE', `/api/kitchen/helpers/${id}`)).statusCode).toBe(404);
      expect((await call(ctx, undefined, 'DELETE', `/api/kitchen/helpers/${id}`)).statusCode).toBe(401);
      expect((await call(ctx, cookie, 'DELETE', '/api/kitchen/helpers/not-an-id')).json()).toMatchObject({
        field: 'id',
      });
      expect((await call(ctx, cookie, 'DELETE', `/api/kitchen/helpers/${id}`)).statusCode).toBe(204);
    });
  },
  { GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
  { clock },
);
