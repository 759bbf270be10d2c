import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/chat.js';
import { REPORT_RATE_LIMIT, type ModerationView, type Report } from '../../shared/moderation.js';
import { reports } from '../db/schema.js';
import { buildKitchen } from '../test/builders.js';
import { openEventStream } from '../test/event-stream.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { buildReview, OPERATOR_EMAIL, operatorEnv, send } from '../test/moderation.js';

async function reportsBy(ctx: TestContext, userId: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: count() })
    .from(reports)
    .where(eq(reports.reporterId, userId));
  return row?.n ?? -1;
}

describeEachEngine(
  'reports',
  (get) => {
    let baseUrl: string;
    beforeAll(async () => {
      baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
    });

    async function chatMessageOf(text = `say ${randomUUID()}`) {
      const author = await signedIn(get(), 'customer', { displayName: 'Loud Author' });
      const res = await send(get().app, 'POST', '/api/chat', author.cookie, { text });
      expect(res.statusCode).toBe(201);
      return { author, message: res.json<ChatMessage>() };
    }

    it('files a report of a chat message, a review and a kitchen, from a customer or a kitchen session', async () => {
      const ctx = get();
      const { message } = await chatMessageOf();
      const { kitchen } = await buildKitchen(ctx, { name: `Reported ${randomUUID().slice(0, 6)}` });
      const customer = await signedIn(ctx, 'customer', { displayName: 'Careful Reporter' });
      const review = await buildReview(ctx, kitchen, (await signedIn(ctx, 'customer')).user);
      const cook = await signedIn(ctx, 'kitchen');
      for (const [cookie, targetKind, targetId] of [
        [customer.cookie, 'chat_message', message.id],
        [customer.cookie, 'kitchen', kitchen.uid],
        [cook.cookie, 'review', review.id],
      ] as const) {
        const res = await send(ctx.app, 'POST', '/api/reports', cookie, {
          targetKind,
          targetId,
          reason: '  Rude and off-topic  ',
        });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json<Report>()).toMatchObject({ targetKind, targetId, reason: 'Rude and off-topic' });
      }
      expect(await reportsBy(ctx, customer.user.id)).toBe(2);
      expect(await reportsBy(ctx, cook.user.id)).toBe(1);
    });

    it('shows a new report on the operator page at once, newest first, with what it names', async () => {
      const ctx = get();
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const stream = await openEventStream(`${baseUrl}/api/operator/moderation`, { cookie: operator.cookie });
      try {
        await stream.waitFor(() => true);
        const text = `<b>spam</b> ${randomUUID()}`;
        const { message } = await chatMessageOf(text);
        const reporter = await signedIn(ctx, 'customer', { displayName: 'Watchful Wendy' });
        const res = await send(ctx.app, 'POST', '/api/reports', reporter.cookie, {
          targetKind: 'chat_message',
          targetId: message.id,
          reason: 'Spam',
        });
        expect(res.statusCode).toBe(201);
        const view = (await stream.waitFor((d) =>
          (d as ModerationView).reports.some((r) => r.targetId === message.id),
        )) as ModerationView;
        expect(view.reports[0]).toMatchObject({
          targetKind: 'chat_message',
          targetId: message.id,
          reason: 'Spam',
          reporterName: 'Watchful Wendy',
          target: { kind: 'chat_message', text, authorName: 'Loud Author', hidden: false },
        });
        // The operator sees names, never the reporter's or the author's email.
        expect(JSON.stringify(view)).not.toContain(reporter.user.email);
      } finally {
        stream.close();
      }
    });

    it('refuses anonymous reporters, and an operator-only session, writing nothing', async () => {
      const ctx = get();
      const { message } = await chatMessageOf();
      const body = { targetKind: 'chat_message', targetId: message.id, reason: 'Spam' };
      const before = (await ctx.database.db.select({ n: count() }).from(reports))[0]?.n;
      const anonymous = await send(ctx.app, 'POST', '/api/reports', undefined, body);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      expect((await send(ctx.app, 'POST', '/api/reports', operator.cookie, body)).statusCode).toBe(401);
      expect((await ctx.database.db.select({ n: count() }).from(reports))[0]?.n).toBe(before);
    });

    it.each([
      ['no targetKind', { targetId: randomUUID(), reason: 'x' }, 'targetKind'],
      ['an unknown targetKind', { targetKind: 'order', targetId: randomUUID(), reason: 'x' }, 'targetKind'],
      ['a targetId that is no id', { targetKind: 'kitchen', targetId: 'abc', reason: 'x' }, 'targetId'],
      ['no targetId', { targetKind: 'kitchen', reason: 'x' }, 'targetId'],
      ['an empty reason', { targetKind: 'kitchen', targetId: randomUUID(), reason: '  ' }, 'reason'],
      ['no reason', { targetKind: 'kitchen', targetId: randomUUID() }, 'reason'],
      [
        'a reason too long',
        { targetKind: 'kitchen', targetId: randomUUID(), reason: 'x'.repeat(501) },
        'reason',
      ],
      ['a reason with NUL', { targetKind: 'kitchen', targetId: randomUUID(), reason: 'a\u0000b' }, 'reason'],
      ['a number for reason', { targetKind: 'kitchen', targetId: randomUUID(), reason: 5 }, 'reason'],
    ])('refuses %s with a 400 naming the field, writing nothing', async (_name, body, field) => {
      const ctx = get();
      const reporter = await signedIn(ctx, 'customer');
      const res = await send(ctx.app, 'POST', '/api/reports', reporter.cookie, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
      expect(await reportsBy(ctx, reporter.user.id)).toBe(0);
    });

    it('answers 404 naming targetId for something that does not exist (or is hidden or suspended)', async () => {
      const ctx = get();
      const reporter = await signedIn(ctx, 'customer');
      for (const targetKind of ['chat_message', 'review', 'kitchen']) {
        const targetId = randomUUID();
        const res = await send(ctx.app, 'POST', '/api/reports', reporter.cookie, {
          targetKind,
          targetId,
          reason: 'Bad',
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND', field: 'targetId' });
        expect(res.json<{ message: string }>().message).toContain(targetId);
      }
      // A kitchen's id given as a chat message's is no chat message.
      const { kitchen } = await buildKitchen(ctx);
      const wrongKind = await send(ctx.app, 'POST', '/api/reports', reporter.cookie, {
        targetKind: 'chat_message',
        targetId: kitchen.uid,
        reason: 'Bad',
      });
      expect(wrongKind.statusCode).toBe(404);
      expect(await reportsBy(ctx, reporter.user.id)).toBe(0);
    });

    it("refuses a report of one's own message or kitchen", async () => {
      const ctx = get();
      const { author, message } = await chatMessageOf();
      const own = await send(ctx.app, 'POST', '/api/reports', author.cookie, {
        targetKind: 'chat_message',
        targetId: message.id,
        reason: 'Oops',
      });
      expect(own.statusCode).toBe(400);
      expect(own.json()).toMatchObject({ field: 'targetId' });
      const { kitchen, cookie } = await buildKitchen(ctx);
      const ownKitchen = await send(ctx.app, 'POST', '/api/reports', cookie, {
        targetKind: 'kitchen',
        targetId: kitchen.uid,
        reason: 'Oops',
      });
      expect(ownKitchen.statusCode).toBe(400);
      expect(await reportsBy(ctx, author.user.id)).toBe(0);
    });

    it('keeps one open report per user and target: a repeat, even at once, answers 409 ALREADY_REPORTED', async () => {
      const ctx = get();
      const { message } = await chatMessageOf();
      const reporter = await signedIn(ctx, 'customer');
      const body = { targetKind: 'chat_message', targetId: message.id, reason: 'Spam' };
      const answers = await Promise.all(
        [1, 2, 3].map(() => send(ctx.app, 'POST', '/api/reports', reporter.cookie, body)),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
      expect(answers.find((a) => a.statusCode === 409)?.json()).toMatchObject({
        code: 'ALREADY_REPORTED',
        field: 'targetId',
      });
      expect(await reportsBy(ctx, reporter.user.id)).toBe(1);
      // Someone else may still report it.
      const other = await signedIn(ctx, 'kitchen');
      expect((await send(ctx.app, 'POST', '/api/reports', other.cookie, body)).statusCode).toBe(201);
    });

    it(`allows ${REPORT_RATE_LIMIT.reports} reports in ${REPORT_RATE_LIMIT.windowMinutes} minutes per user, then 429 with Retry-After`, async () => {
      const ctx = get();
      const reporter = await signedIn(ctx, 'customer');
      for (let i = 0; i < REPORT_RATE_LIMIT.reports; i++) {
        const { kitchen } = await buildKitchen(ctx);
        const res = await send(ctx.app, 'POST', '/api/reports', reporter.cookie, {
          targetKind: 'kitchen',
          targetId: kitchen.uid,
          reason: `Report ${i}`,
        });
        expect(res.statusCode, res.body).toBe(201);
      }
      const { kitchen } = await buildKitchen(ctx);
      const res = await send(ctx.app, 'POST', '/api/reports', reporter.cookie, {
        targetKind: 'kitchen',
        targetId: kitchen.uid,
        reason: 'One too many',
      });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(await reportsBy(ctx, reporter.user.id)).toBe(REPORT_RATE_LIMIT.reports);
    });

    it('refuses a cross-site report', async () => {
      const ctx = get();
      const { kitchen } = await buildKitchen(ctx);
      const reporter = await signedIn(ctx, 'customer');
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/reports',
        headers: {
          cookie: reporter.cookie,
          'content-type': 'application/json',
          origin: 'https://evil.example',
        },
        payload: JSON.stringify({ targetKind: 'kitchen', targetId: kitchen.uid, reason: 'csrf' }),
      });
      expect(res.statusCode).toBe(403);
      expect(await reportsBy(ctx, reporter.user.id)).toBe(0);
    });
  },
  operatorEnv,
);
