import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { CHAT_PAGE_SIZE, type ChatMessage } from '../../shared/chat.js';
import { chatMessages } from '../db/schema.js';
import { openEventStream } from '../test/event-stream.js';
import {
  buildUser,
  describeEachEngine,
  sessionCookie,
  signedIn,
  type TestContext,
} from '../test/test-app.js';

const json = { 'content-type': 'application/json' };

describeEachEngine('chat', (get) => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const post = (payload: unknown, cookie?: string) =>
    get().app.inject({
      method: 'POST',
      url: '/api/chat',
      headers: { ...json, ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(payload),
    });

  async function messagesOf(ctx: TestContext, userId: string): Promise<number> {
    const [row] = await ctx.database.db
      .select({ n: count() })
      .from(chatMessages)
      .where(eq(chatMessages.userId, userId));
    return row?.n ?? -1;
  }

  /** Inserts messages of `userId` straight into the database, at the given times. */
  async function insertAt(userId: string, times: Date[]): Promise<void> {
    await get()
      .database.db.insert(chatMessages)
      .values(times.map((createdAt, i) => ({ userId, text: `old ${i}`, createdAt })));
  }

  it('refuses anonymous readers and writers, and writes nothing', async () => {
    const { app, database } = get();
    expect((await app.inject('/api/chat')).statusCode).toBe(401);
    const history = await app.inject(`/api/chat/history?before=${randomUUID()}`);
    expect(history.statusCode).toBe(401);
    await expect(openEventStream(`${baseUrl}/api/chat`)).rejects.toThrow(/401/);
    const text = `anonymous ${randomUUID()}`;
    const res = await post({ text });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const rows = await database.db.select().from(chatMessages).where(eq(chatMessages.text, text));
    expect(rows).toEqual([]);
  });

  it('posts a trimmed message as the customer, and lists it last among the latest, oldest first', async () => {
    const { user, cookie } = await signedIn(get(), 'customer', { displayName: 'Chatty Customer' });
    const res = await post({ text: '  hello everyone  ' }, cookie);
    expect(res.statusCode).toBe(201);
    const message = res.json<ChatMessage>();
    expect(message).toMatchObject({
      text: 'hello everyone',
      uid: user.id,
      displayName: 'Chatty Customer',
      photoURL: null,
    });
    expect(Date.parse(message.createdAt)).not.toBeNaN();

    const list = await get().app.inject({ url: '/api/chat', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    const messages = list.json<ChatMessage[]>();
    expect(messages.length).toBeLessThanOrEqual(CHAT_PAGE_SIZE);
    expect(messages.at(-1)).toEqual(message);
    const keys = messages.map((m) => `${m.createdAt} ${m.id}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('lets a kitchen owner chat too, and uses the customer identity when both are signed in', async () => {
    const ctx = get();
    const cook = await signedIn(ctx, 'kitchen');
    const res = await post({ text: 'from the kitchen' }, cook.cookie);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ uid: cook.user.id });

    const customer = await buildUser(ctx);
    const both = `${cook.cookie}; ${await sessionCookie(ctx, customer, 'customer')}`;
    const asBoth = await post({ text: 'who am I' }, both);
    expect(asBoth.statusCode).toBe(201);
    expect(asBoth.json()).toMatchObject({ uid: customer.id });
  });

  it.each([
    ['empty', { text: '' }],
    ['only spaces', { text: '   \t ' }],
    ['too long', { text: 'x'.repeat(501) }],
    ['too long in code points', { text: '😀'.repeat(501) }],
    ['a number', { text: 42 }],
    ['null', { text: null }],
    ['an array', { text: ['hi'] }],
    ['missing', {}],
    ['holding NUL', { text: 'a\u0000b' }],
  ])('refuses text that is %s with a 400 naming text, writing nothing', async (_name, body) => {
    const { user, cookie } = await signedIn(get(), 'customer');
    const res = await post(body, cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'text' });
    expect(await messagesOf(get(), user.id)).toBe(0);
  });

  it('accepts exactly 500 characters, counting an emoji as one', async () => {
    const { cookie } = await signedIn(get(), 'customer');
    expect((await post({ text: '😀'.repeat(500) }, cookie)).statusCode).toBe(201);
  });

  it('takes the sender from the session, ignoring a uid or name in the body', async () => {
    const ctx = get();
    const victim = await buildUser(ctx, { displayName: 'Victim' });
    const { user, cookie } = await signedIn(ctx, 'customer', { displayName: 'Real Sender' });
    const res = await post(
      { text: 'spoof?', uid: victim.id, userId: victim.id, displayName: 'Victim', id: randomUUID() },
      cookie,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ uid: user.id, displayName: 'Real Sender' });
    expect(await messagesOf(ctx, victim.id)).toBe(0);
    expect(await messagesOf(ctx, user.id)).toBe(1);
  });

  it('refuses a cross-site post', async () => {
    const { user, cookie } = await signedIn(get(), 'customer');
    const res = await get().app.inject({
      method: 'POST',
      url: '/api/chat',
      headers: { ...json, cookie, origin: 'https://evil.example' },
      payload: JSON.stringify({ text: 'csrf' }),
    });
    expect(res.statusCode).toBe(403);
    expect(await messagesOf(get(), user.id)).toBe(0);
  });

  it('answers the 6th message within 10 seconds with a 429 and Retry-After, writing nothing', async () => {
    const { user, cookie } = await signedIn(get(), 'customer');
    for (let i = 0; i < 5; i++) expect((await post({ text: `burst ${i}` }, cookie)).statusCode).toBe(201);
    const res = await post({ text: 'one too many' }, cookie);
    expect(res.statusCode).toBe(429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(res.json<{ message: string }>().message).toMatch(/too fast.*wait \d+ seconds?/);
    expect(await messagesOf(get(), user.id)).toBe(5);

    // The limit is per user: someone else may still talk.
    const other = await signedIn(get(), 'customer');
    expect((await post({ text: 'my turn' }, other.cookie)).statusCode).toBe(201);
  });

  it('holds the limit under concurrent posts', async () => {
    const { user, cookie } = await signedIn(get(), 'customer');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post({ text: `race ${i}` }, cookie)),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect(await messagesOf(get(), user.id)).toBe(5);
  });

  it('counts only the last 10 seconds, by the database clock, and says how long to wait', async () => {
    const ctx = get();
    const old = await signedIn(ctx, 'customer');
    const now = Date.now();
    await insertAt(
      old.user.id,
      Array.from({ length: 5 }, () => new Date(now - 11_000)),
    );
    expect((await post({ text: 'after a pause' }, old.cookie)).statusCode).toBe(201);

    const recent = await signedIn(ctx, 'customer');
    await insertAt(recent.user.id, [
      ...Array.from({ length: 4 }, () => new Date(now - 1_000)),
      new Date(now - 7_500),
    ]);
    const res = await post({ text: 'too soon' }, recent.cookie);
    expect(res.statusCode).toBe(429);
    // The oldest of the five leaves the window about 2.5 s from now.
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3);
  });

  it('pages back through history by (time, id) with no message skipped or repeated', async () => {
    const ctx = get();
    const { user, cookie } = await signedIn(ctx, 'customer');
    // Far in the past, so they are the oldest messages of this database; pairs share a timestamp.
    const base = Date.UTC(1971, 0, 1);
    await insertAt(
      user.id,
      Array.from({ length: 250 }, (_, i) => new Date(base + Math.floor(i / 2) * 1000)),
    );
    const mine = await ctx.database.db.select().from(chatMessages).where(eq(chatMessages.userId, user.id));
    const expected = mine
      .map((m) => ({ id: m.id, key: `${m.createdAt.toISOString()} ${m.id}` }))
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .map((m) => m.id);

    const newest = expected.at(-1) ?? '';
    const collected: string[] = [];
    let before = newest;
    for (;;) {
      const res = await ctx.app.inject({ url: `/api/chat/history?before=${before}`, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      const page = res.json<ChatMessage[]>();
      expect(page.length).toBeLessThanOrEqual(CHAT_PAGE_SIZE);
      if (page.length === 0) break;
      expect(page.every((m) => m.uid === user.id)).toBe(true);
      collected.unshift(...page.map((m) => m.id));
      before = page[0]?.id ?? '';
    }
    expect(collected).toEqual(expected.slice(0, -1));
  });

  it('refuses history without a valid cursor', async () => {
    const { cookie } = await signedIn(get(), 'kitchen');
    const missing = await get().app.inject({ url: '/api/chat/history', headers: { cookie } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'before' });
    const malformed = await get().app.inject({ url: '/api/chat/history?before=nope', headers: { cookie } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ field: 'before' });
    const unknown = await get().app.inject({
      url: `/api/chat/history?before=${randomUUID()}`,
      headers: { cookie },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('streams the latest messages to a signed-in reader and a new one when it is posted', async () => {
    const reader = await signedIn(get(), 'kitchen');
    const writer = await signedIn(get(), 'customer');
    const stream = await openEventStream(`${baseUrl}/api/chat`, { cookie: reader.cookie });
    try {
      await stream.waitFor((d) => Array.isArray(d));
      const text = `<img src=x onerror=alert(1)> ${randomUUID()}`;
      const res = await post({ text }, writer.cookie);
      expect(res.statusCode).toBe(201);
      const snapshot = (await stream.waitFor(
        (d) => Array.isArray(d) && (d as ChatMessage[]).some((m) => m.text === text),
      )) as ChatMessage[];
      expect(snapshot.at(-1)).toMatchObject({ text, uid: writer.user.id });
      expect(snapshot.length).toBeLessThanOrEqual(CHAT_PAGE_SIZE);
    } finally {
      stream.close();
    }
  });
});
