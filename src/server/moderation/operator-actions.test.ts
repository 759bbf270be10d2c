import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/chat.js';
import type { Kitchen } from '../../shared/kitchens.js';
import type { KitchenSearchHit } from '../../shared/search.js';
import type { ModerationView, Report } from '../../shared/moderation.js';
import { chatMessages, kitchens, operatorActions, reports, reviews } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { openEventStream } from '../test/event-stream.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { buildReview, OPERATOR_EMAIL, OTHER_OPERATOR_EMAIL, operatorEnv, send } from '../test/moderation.js';

async function fingerprint(ctx: TestContext) {
  const db = ctx.database.db;
  return JSON.stringify([
    await db.select().from(chatMessages).orderBy(chatMessages.id),
    await db.select().from(kitchens).orderBy(kitchens.ownerId),
    await db.select().from(reviews).orderBy(reviews.id),
    await db.select().from(reports).orderBy(reports.id),
    await db.select().from(operatorActions).orderBy(operatorActions.id),
  ]);
}

async function lastAction(ctx: TestContext) {
  const [row] = await ctx.database.db
    .select()
    .from(operatorActions)
    .orderBy(desc(operatorActions.createdAt))
    .limit(1);
  return row;
}

describeEachEngine(
  'operator actions',
  (get) => {
    let baseUrl: string;
    beforeAll(async () => {
      baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
    });

    const operator = () => signedIn(get(), 'operator', { email: OPERATOR_EMAIL, displayName: 'Olga Ops' });

    async function messageWithReport() {
      const ctx = get();
      const author = await signedIn(ctx, 'customer');
      const text = `rude ${randomUUID()}`;
      const message = (await send(ctx.app, 'POST', '/api/chat', author.cookie, { text })).json<ChatMessage>();
      const reporter = await signedIn(ctx, 'kitchen');
      const res = await send(ctx.app, 'POST', '/api/reports', reporter.cookie, {
        targetKind: 'chat_message',
        targetId: message.id,
        reason: 'Rude',
      });
      expect(res.statusCode).toBe(201);
      return { author, message, reporter, report: res.json<Report>() };
    }

    it('hides a chat message: gone from the chat, its history and an open stream; its report closed; recorded', async () => {
      const ctx = get();
      const { message, report, reporter } = await messageWithReport();
      const after = await send(ctx.app, 'POST', '/api/chat', reporter.cookie, {
        text: `later ${randomUUID()}`,
      });
      const reader = await signedIn(ctx, 'customer');
      const chat = await openEventStream(`${baseUrl}/api/chat`, { cookie: reader.cookie });
      const hidden = await openEventStream(`${baseUrl}/api/chat/hidden`, { cookie: reader.cookie });
      try {
        await hidden.waitFor((d) => Array.isArray(d) && !(d as string[]).includes(message.id));
        await chat.waitFor((d) => (d as ChatMessage[]).some((m) => m.id === message.id));
        const ops = await operator();
        const res = await send(
          ctx.app,
          'POST',
          `/api/operator/chat-messages/${message.id}/hide`,
          ops.cookie,
          {
            note: 'Insults',
          },
        );
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ changed: true });
        await chat.waitFor((d) => !(d as ChatMessage[]).some((m) => m.id === message.id));
        // Pages holding it in history they loaded earlier hear its id.
        await hidden.waitFor((d) => (d as string[])[0] === message.id);
      } finally {
        chat.close();
        hidden.close();
      }
      expect((await send(ctx.app, 'GET', '/api/chat/hidden')).statusCode).toBe(401);
      const list = (await send(ctx.app, 'GET', '/api/chat', reader.cookie)).json<ChatMessage[]>();
      expect(list.map((m) => m.id)).not.toContain(message.id);
      const history = await send(
        ctx.app,
        'GET',
        `/api/chat/history?before=${after.json<ChatMessage>().id}`,
        reader.cookie,
      );
      expect(history.statusCode).toBe(200);
      expect(history.json<ChatMessage[]>().map((m) => m.id)).not.toContain(message.id);
      const [closed] = await ctx.database.db.select().from(reports).where(eq(reports.id, report.id));
      expect(closed?.closedAt).toBeInstanceOf(Date);
      expect(await lastAction(ctx)).toMatchObject({
        operatorEmail: OPERATOR_EMAIL,
        action: 'hide_chat_message',
        targetKind: 'chat_message',
        targetId: message.id,
        note: 'Insults',
      });
      // Hiding it again changes nothing and records nothing.
      const before = await fingerprint(ctx);
      const again = await send(
        ctx.app,
        'POST',
        `/api/operator/chat-messages/${message.id}/hide`,
        (await operator()).cookie,
        {},
      );
      expect(again.json()).toEqual({ changed: false });
      expect(await fingerprint(ctx)).toBe(before);
    });

    it('hides a review, recorded, and a hidden review can no longer be reported', async () => {
      const ctx = get();
      const { kitchen } = await buildKitchen(ctx);
      const review = await buildReview(ctx, kitchen, (await signedIn(ctx, 'customer')).user);
      const ops = await operator();
      const res = await send(ctx.app, 'POST', `/api/operator/reviews/${review.id}/hide`, ops.cookie, {});
      expect(res.statusCode, res.body).toBe(200);
      const [row] = await ctx.database.db.select().from(reviews).where(eq(reviews.id, review.id));
      expect(row?.hiddenAt).toBeInstanceOf(Date);
      expect(await lastAction(ctx)).toMatchObject({ action: 'hide_review', targetId: review.id });
      const late = await send(ctx.app, 'POST', '/api/reports', (await signedIn(ctx, 'customer')).cookie, {
        targetKind: 'review',
        targetId: review.id,
        reason: 'Late',
      });
      expect(late.statusCode).toBe(404);
    });

    it('suspends a kitchen: off the list, the search and its open stream, orders refused; lifting brings it back', async () => {
      const ctx = get();
      const name = `Suspendable ${randomUUID().slice(0, 8)}`;
      const { kitchen, cookie: cookCookie } = await buildKitchen(ctx, { name, about: 'Cooking since 1990.' });
      const item = await buildMenuItem(ctx, kitchen);
      const customer = await signedIn(ctx, 'customer');
      const search = async () =>
        (await send(ctx.app, 'GET', `/api/kitchens/search?q=${encodeURIComponent(name)}`)).json<
          KitchenSearchHit[]
        >();
      expect((await search()).map((k) => k.uid)).toContain(kitchen.uid);
      const landing = await openEventStream(`${baseUrl}/api/kitchens`);
      const ops = await operator();
      try {
        await landing.waitFor((d) => (d as Kitchen[]).some((k) => k.uid === kitchen.uid));
        const res = await send(
          ctx.app,
          'POST',
          `/api/operator/kitchens/${kitchen.uid}/suspend`,
          ops.cookie,
          {},
        );
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ changed: true });
        await landing.waitFor((d) => !(d as Kitchen[]).some((k) => k.uid === kitchen.uid));
      } finally {
        landing.close();
      }
      expect((await search()).map((k) => k.uid)).not.toContain(kitchen.uid);
      // Its name still says whose dishes a cart holds; its picture and story are withheld.
      const page = await send(ctx.app, 'GET', `/api/kitchens/${kitchen.uid}`);
      expect(page.json<Kitchen>()).toMatchObject({
        uid: kitchen.uid,
        name,
        suspended: true,
        imageLink: null,
        image: null,
        about: '',
      });
      const order = await send(ctx.app, 'POST', '/api/orders', customer.cookie, {
        kitchenUid: kitchen.uid,
        itemIds: [item.id],
        address: '1 Hungry Road',
        idempotencyKey: `suspended-${randomUUID()}`,
      });
      expect(order.statusCode).toBe(409);
      expect(order.json()).toMatchObject({ code: 'KITCHEN_SUSPENDED', field: 'kitchenUid' });
      expect(order.json<{ message: string }>().message).toContain(name);
      // The cook still has their dashboard.
      const own = await send(ctx.app, 'GET', '/api/kitchen', cookCookie);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject({ uid: kitchen.uid, suspended: true });
      expect(await lastAction(ctx)).toMatchObject({ action: 'suspend_kitchen', targetId: kitchen.uid });

      const view = (
        await send(ctx.app, 'GET', '/api/operator/moderation', ops.cookie)
      ).json<ModerationView>();
      expect(view.suspendedKitchens.map((k) => k.uid)).toContain(kitchen.uid);

      const lift = await send(
        ctx.app,
        'POST',
        `/api/operator/kitchens/${kitchen.uid}/lift-suspension`,
        ops.cookie,
        {},
      );
      expect(lift.statusCode).toBe(200);
      expect(lift.json()).toEqual({ changed: true });
      expect((await search()).map((k) => k.uid)).toContain(kitchen.uid);
      const list = (await send(ctx.app, 'GET', '/api/kitchens')).json<Kitchen[]>();
      expect(list.find((k) => k.uid === kitchen.uid)).toMatchObject({ suspended: false });
      const lifted = (await send(ctx.app, 'GET', `/api/kitchens/${kitchen.uid}`)).json<Kitchen>();
      expect(lifted).toMatchObject({ imageLink: kitchen.imageLink, about: 'Cooking since 1990.' });
      const ordered = await send(ctx.app, 'POST', '/api/orders', customer.cookie, {
        kitchenUid: kitchen.uid,
        itemIds: [item.id],
        address: '1 Hungry Road',
        idempotencyKey: `lifted-${randomUUID()}`,
      });
      expect(ordered.statusCode, ordered.body).toBe(201);
      expect(await lastAction(ctx)).toMatchObject({ action: 'lift_suspension', targetId: kitchen.uid });
    });

    it("serves a suspended kitchen's dishes and reviews to its cook and operators only, until lifted", async () => {
      const ctx = get();
      const { kitchen, cookie: cookCookie } = await buildKitchen(ctx);
      await buildMenuItem(ctx, kitchen);
      const customer = await signedIn(ctx, 'customer');
      const otherCook = await signedIn(ctx, 'kitchen');
      const ops = await operator();
      const urls = [`/api/kitchens/${kitchen.uid}/menu`, `/api/kitchens/${kitchen.uid}/reviews`];
      const statuses = async () =>
        Promise.all(
          urls.flatMap((url) =>
            [undefined, customer.cookie, otherCook.cookie, cookCookie, ops.cookie].map(
              async (cookie) => (await send(ctx.app, 'GET', url, cookie)).statusCode,
            ),
          ),
        );
      expect(await statuses()).toEqual(Array(10).fill(200));
      const open = await openEventStream(`${baseUrl}${urls[0]}`);
      try {
        await open.waitFor((menu) => Array.isArray(menu));
      } finally {
        open.close();
      }
      const suspend = `/api/operator/kitchens/${kitchen.uid}/suspend`;
      expect((await send(ctx.app, 'POST', suspend, ops.cookie, {})).statusCode).toBe(200);
      // Anonymous, a customer, another cook: 404; its cook and the operator: 200.
      expect(await statuses()).toEqual([404, 404, 404, 200, 200, 404, 404, 404, 200, 200]);
      const refused = await send(ctx.app, 'GET', urls[0]!);
      expect(refused.json()).toMatchObject({
        code: 'NOT_FOUND',
        message: 'This kitchen is unavailable right now.',
      });
      const lift = `/api/operator/kitchens/${kitchen.uid}/lift-suspension`;
      expect((await send(ctx.app, 'POST', lift, ops.cookie, {})).statusCode).toBe(200);
      expect(await statuses()).toEqual(Array(10).fill(200));
    });

    it("ends the streams of a suspended kitchen's dishes and reviews opened before; its cook opens them again", async () => {
      const ctx = get();
      const { kitchen, cookie: cookCookie } = await buildKitchen(ctx);
      await buildMenuItem(ctx, kitchen);
      const ops = await operator();
      const urls = [`/api/kitchens/${kitchen.uid}/menu`, `/api/kitchens/${kitchen.uid}/reviews`];
      const readers: Record<string, string>[] = [{}, { cookie: cookCookie }, { cookie: ops.cookie }];
      const streams = await Promise.all(
        urls.flatMap((url) => readers.map((headers) => openEventStream(`${baseUrl}${url}`, headers))),
      );
      try {
        await Promise.all(streams.map((stream) => stream.waitFor((list) => Array.isArray(list))));
        const suspend = `/api/operator/kitchens/${kitchen.uid}/suspend`;
        expect((await send(ctx.app, 'POST', suspend, ops.cookie, {})).statusCode).toBe(200);
        // Every stream opened while the kitchen was public ends (its readers were not asked who they are).
        await Promise.all(streams.map((stream) => stream.ended));
      } finally {
        for (const stream of streams) stream.close();
      }
      // Opened again: refused to the public, served to its cook and operators, and not ended by the suspension.
      await expect(openEventStream(`${baseUrl}${urls[0]}`)).rejects.toThrow('stream answered 404');
      const again = await Promise.all(
        urls.map((url) => openEventStream(`${baseUrl}${url}`, { cookie: cookCookie })),
      );
      try {
        await Promise.all(again.map((stream) => stream.waitFor((list) => Array.isArray(list))));
        await buildMenuItem(ctx, kitchen, { item: 'Added while suspended' });
        await again[0]!.waitFor(
          (menu) =>
            Array.isArray(menu) &&
            menu.some((dish: { item: string }) => dish.item === 'Added while suspended'),
        );
      } finally {
        for (const stream of again) stream.close();
      }
    });

    it("ends the cook's and the operator's streams of a suspended kitchen's dishes when they sign out", async () => {
      const ctx = get();
      const { kitchen, cookie: cookCookie } = await buildKitchen(ctx);
      await buildMenuItem(ctx, kitchen);
      const ops = await operator();
      const suspend = `/api/operator/kitchens/${kitchen.uid}/suspend`;
      expect((await send(ctx.app, 'POST', suspend, ops.cookie, {})).statusCode).toBe(200);
      const url = `${baseUrl}/api/kitchens/${kitchen.uid}/menu`;
      const cooks = await openEventStream(url, { cookie: cookCookie });
      const operators = await openEventStream(url, { cookie: ops.cookie });
      try {
        await Promise.all([cooks, operators].map((stream) => stream.waitFor((list) => Array.isArray(list))));
        for (const [role, cookie, stream] of [
          ['kitchen', cookCookie, cooks],
          ['operator', ops.cookie, operators],
        ] as const) {
          const out = await fetch(`${baseUrl}/auth/${role}/sign-out`, {
            method: 'POST',
            headers: { cookie, origin: ctx.config.publicUrl },
          });
          expect(out.status).toBeLessThan(400);
          await stream.ended;
          await expect(openEventStream(url, { cookie })).rejects.toThrow('stream answered 404');
        }
      } finally {
        cooks.close();
        operators.close();
      }
    });

    it('closes a report without touching what it names, recorded with the report', async () => {
      const ctx = get();
      const { message, report } = await messageWithReport();
      const ops = await operator();
      const res = await send(ctx.app, 'POST', `/api/operator/reports/${report.id}/close`, ops.cookie, {});
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ changed: true });
      const [row] = await ctx.database.db.select().from(chatMessages).where(eq(chatMessages.id, message.id));
      expect(row?.hiddenAt).toBeNull();
      const view = (
        await send(ctx.app, 'GET', '/api/operator/moderation', ops.cookie)
      ).json<ModerationView>();
      expect(view.reports.map((r) => r.id)).not.toContain(report.id);
      expect(view.actions[0]).toMatchObject({
        operatorEmail: OPERATOR_EMAIL,
        action: 'close_report',
        reportId: report.id,
        targetId: message.id,
      });
      expect(Date.parse(view.actions[0]?.createdAt ?? '')).not.toBeNaN();
    });

    it('answers 404 naming the id for unknown targets and 400 for malformed ones, changing nothing', async () => {
      const ctx = get();
      const ops = await operator();
      const before = await fingerprint(ctx);
      for (const path of [
        'chat-messages/:id/hide',
        'reviews/:id/hide',
        'kitchens/:id/suspend',
        'kitchens/:id/lift-suspension',
        'reports/:id/close',
      ]) {
        const id = randomUUID();
        const res = await send(ctx.app, 'POST', `/api/operator/${path.replace(':id', id)}`, ops.cookie, {});
        expect(res.statusCode, path).toBe(404);
        expect(res.json<{ message: string }>().message).toContain(id);
        const bad = await send(
          ctx.app,
          'POST',
          `/api/operator/${path.replace(':id', 'nope')}`,
          ops.cookie,
          {},
        );
        expect(bad.statusCode, path).toBe(400);
        expect(bad.json()).toMatchObject({ code: 'VALIDATION' });
      }
      const { kitchen } = await buildKitchen(ctx);
      const beforeNote = await fingerprint(ctx);
      const note = await send(ctx.app, 'POST', `/api/operator/kitchens/${kitchen.uid}/suspend`, ops.cookie, {
        note: 'x'.repeat(501),
      });
      expect(note.statusCode).toBe(400);
      expect(note.json()).toMatchObject({ field: 'note' });
      expect(await fingerprint(ctx)).toBe(beforeNote);
      expect(before).not.toBe(beforeNote); // (the kitchen was added in between)
    });

    it('refuses every operator route to anonymous, customers, kitchen owners and a delisted operator', async () => {
      const ctx = get();
      const { message, report } = await messageWithReport();
      const { kitchen } = await buildKitchen(ctx);
      const review = await buildReview(ctx, kitchen, (await signedIn(ctx, 'customer')).user);
      const customer = await signedIn(ctx, 'customer', { email: OPERATOR_EMAIL });
      const cook = await signedIn(ctx, 'kitchen', { email: OPERATOR_EMAIL });
      // An operator session of an email that was never listed (as if the list changed after it signed in).
      const unlisted = await signedIn(ctx, 'operator', { email: 'former-ops@example.test' });
      const routes = [
        `/api/operator/chat-messages/${message.id}/hide`,
        `/api/operator/reviews/${review.id}/hide`,
        `/api/operator/kitchens/${kitchen.uid}/suspend`,
        `/api/operator/kitchens/${kitchen.uid}/lift-suspension`,
        `/api/operator/reports/${report.id}/close`,
      ];
      const before = await fingerprint(ctx);
      for (const [who, cookie, status] of [
        ['anonymous', undefined, 401],
        ['customer', customer.cookie, 401],
        ['kitchen owner', cook.cookie, 401],
        ['unlisted operator', unlisted.cookie, 403],
      ] as const) {
        for (const url of routes) {
          const res = await send(ctx.app, 'POST', url, cookie, {});
          expect(res.statusCode, `${who} ${url}`).toBe(status);
        }
        const read = await send(ctx.app, 'GET', '/api/operator/moderation', cookie);
        expect(read.statusCode, who).toBe(status);
        await expect(
          openEventStream(`${baseUrl}/api/operator/moderation`, cookie ? { cookie } : {}),
        ).rejects.toThrow(String(status));
      }
      expect(await fingerprint(ctx)).toBe(before);
      // A customer and a kitchen session of a listed email are still no operator.
      const state = await send(ctx.app, 'GET', '/api/session', `${customer.cookie}; ${cook.cookie}`);
      expect(state.json()).toMatchObject({ operator: null });
    });

    it('takes the power away at once when an email leaves OPERATOR_EMAILS, on the next request', async () => {
      const ctx = get();
      const { message } = await messageWithReport();
      const second = await signedIn(ctx, 'operator', { email: OTHER_OPERATOR_EMAIL.toLowerCase() });
      const session = async () =>
        (await send(ctx.app, 'GET', '/api/session', second.cookie)).json<{
          operator: { email: string } | null;
        }>();
      expect((await session()).operator?.email).toBe(OTHER_OPERATOR_EMAIL.toLowerCase());
      expect((await send(ctx.app, 'GET', '/api/operator/moderation', second.cookie)).statusCode).toBe(200);
      // The list as a restart with an edited OPERATOR_EMAILS would read it; the session itself stays valid.
      const emails = ctx.app.config.operatorEmails as Set<string>;
      emails.delete(OTHER_OPERATOR_EMAIL.toLowerCase());
      try {
        const before = await fingerprint(ctx);
        const res = await send(
          ctx.app,
          'POST',
          `/api/operator/chat-messages/${message.id}/hide`,
          second.cookie,
          {},
        );
        expect(res.statusCode).toBe(403);
        expect(await fingerprint(ctx)).toBe(before);
        expect((await session()).operator).toBeNull();
      } finally {
        emails.add(OTHER_OPERATOR_EMAIL.toLowerCase());
      }
    });
  },
  operatorEnv,
);
