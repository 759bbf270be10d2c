import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { DOCUMENTS_NOT_IN_FORCE, type KitchenDocuments } from '../../shared/kitchen-documents.js';
import { notificationOutbox } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { renderNotice } from '../notifications/render.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { addPapers, approveKitchen, startCaliforniaGeocoder } from '../test/law.js';
import { describeEachEngine, signedIn } from '../test/test-app.js';
import { sendDocumentReminders } from './document-reminders.js';

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
  'a food safety certificate’s expiry: reminders, the kitchen paused, resumed on renewal',
  (get) => {
    it('reminds 30, 7 and 1 days before (once each), pauses the kitchen the day after, resumes it on a renewal', async () => {
      const ctx = get();
      now = noonIn('2026-11-24');
      const { kitchen, cookie } = await buildKitchen(ctx, {
        address: '12 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      const dish = await buildMenuItem(ctx, kitchen, { price: '10.00' });
      const add = async (kind: string, number: string, expiresOn: string) => {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/kitchen/documents',
          headers: { cookie },
          payload: { kind, number, expiresOn },
        });
        expect(res.statusCode).toBe(201);
        return res.json<{ id: string }>().id;
      };
      await add('permit', 'MEHKO-2041', '2027-06-30');
      const certificate = await add('food-safety-certificate', 'FSM-9001', '2026-12-31');
      await approveKitchen(ctx, kitchen.uid);
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
          remoteAddress: `2001:db8::e:${(++addressCounter).toString(16)}`,
        });
      };
      const reminders = async () =>
        (
          await ctx.database.db
            .select({ key: notificationOutbox.key })
            .from(notificationOutbox)
            .where(
              and(
                eq(notificationOutbox.recipientId, kitchen.uid),
                eq(notificationOutbox.kind, 'document-expiring'),
                eq(notificationOutbox.subjectId, certificate),
              ),
            )
        )
          .map((r) => Number(r.key.split(':')[2]))
          .sort((a, b) => b - a);
      const sweepAt = async (day: string) => {
        now = noonIn(day);
        await sendDocumentReminders(ctx.app);
        await sendDocumentReminders(ctx.app); // twice: each reminder is told once however often it is found
        return reminders();
      };
      const documents = async () =>
        (
          await ctx.app.inject({ method: 'GET', url: '/api/kitchen/documents', headers: { cookie } })
        ).json<KitchenDocuments>();

      expect(await sweepAt('2026-11-24')).toEqual([]); // 37 days before
      expect(await sweepAt('2026-12-01')).toEqual([30]);
      expect(await sweepAt('2026-12-10')).toEqual([30]);
      expect(await sweepAt('2026-12-24')).toEqual([30, 7]);
      expect(await sweepAt('2026-12-30')).toEqual([30, 7, 1]);
      // The 1-day reminder, as the cook reads it (email and push render the same notice).
      const [row] = await ctx.database.db
        .select()
        .from(notificationOutbox)
        .where(eq(notificationOutbox.key, `document:${certificate}:1:${kitchen.uid}`));
      const rendered = await renderNotice(ctx.database.db, row!, ctx.config.publicUrl, new Date(now));
      expect(rendered).toMatchObject({
        subject: 'Your food safety certificate expires tomorrow',
        path: '/KitchenRules',
      });
      expect(rendered?.text).toContain('(FSM-9001) expires on Dec 31, 2026.');

      // Its last day: still taking orders. The day after, in the kitchen's zone: paused by itself.
      now = Date.parse('2027-01-01T07:59:00Z'); // 23:59 on 31 December in Los Angeles
      expect((await order()).statusCode).toBe(201);
      expect((await documents()).pause).toBeNull();
      now = Date.parse('2027-01-01T08:00:00Z');
      const refused = await order();
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        code: DOCUMENTS_NOT_IN_FORCE,
        field: 'kitchenUid',
        message: `${kitchen.name} is not taking orders: its food safety certificate expired on Dec 31, 2026.`,
      });
      expect((await documents()).pause).toEqual({ kind: 'food-safety-certificate', expiredOn: '2026-12-31' });
      expect(await sweepAt('2027-01-01')).toEqual([30, 7, 1]); // nothing more once it has expired

      // A renewed certificate: orders again, and no reminder of the old one's expiry is left to send.
      await add('food-safety-certificate', 'FSM-9002', '2029-12-31');
      expect((await documents()).pause).toBeNull();
      expect((await order()).statusCode).toBe(201);
      expect(await renderNotice(ctx.database.db, row!, ctx.config.publicUrl, new Date(now))).toBeNull();
    });

    it('keeps a kitchen whose rules require a permit from taking orders until it is added', async () => {
      const ctx = get();
      now = noonIn('2026-11-24');
      const { kitchen, cookie } = await buildKitchen(ctx, {
        address: '12 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      // Approved by an operator (as one may before the papers are in): the papers still stop its orders.
      await approveKitchen(ctx, kitchen.uid);
      const dish = await buildMenuItem(ctx, kitchen);
      const { cookie: customer } = await signedIn(ctx, 'customer');
      const place = () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/orders',
          headers: { cookie: customer },
          payload: {
            kitchenUid: kitchen.uid,
            itemIds: [dish.id],
            address: '1 Road',
            idempotencyKey: randomUUID(),
          },
        });
      const refused = await place();
      expect(refused.json()).toMatchObject({
        code: DOCUMENTS_NOT_IN_FORCE,
        message: `${kitchen.name} cannot take orders until its permit number is added.`,
      });
      await addPapers(ctx, { cookie, kitchen });
      expect((await place()).statusCode).toBe(201);
    });

    it('refuses a document without its number, expiry or (for a helper’s card) holder, naming the field', async () => {
      const ctx = get();
      const { cookie } = await buildKitchen(ctx);
      const post = (payload: object) =>
        ctx.app.inject({ method: 'POST', url: '/api/kitchen/documents', headers: { cookie }, payload });
      for (const [payload, field] of [
        [{ kind: 'permit', number: '', expiresOn: '2027-01-01' }, 'number'],
        [{ kind: 'permit', number: 'A1', expiresOn: '2027-02-30x' }, 'expiresOn'],
        [{ kind: 'licence', number: 'A1', expiresOn: '2027-01-01' }, 'kind'],
        [{ kind: 'food-handler-card', number: 'FH-1', expiresOn: '2027-01-01' }, 'holder'],
      ] as const) {
        const res = await post(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ field });
      }
      const valid = { kind: 'permit', number: 'A1', expiresOn: '2027-01-01' };
      expect(
        (await ctx.app.inject({ method: 'POST', url: '/api/kitchen/documents', payload: valid })).statusCode,
      ).toBe(401);
      const card = await post({
        kind: 'food-handler-card',
        number: 'FH-1',
        holder: 'Ana',
        expiresOn: '2027-01-01',
      });
      expect(card.statusCode).toBe(201);
      expect(card.json()).toMatchObject({
        kind: 'food-handler-card',
        holder: 'Ana',
        expiresOn: '2027-01-01',
      });
    });
  },
  { GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
  { clock },
);
