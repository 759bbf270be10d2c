import http from 'node:http';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionState } from '../../shared/auth.js';
import { sessions, users } from '../db/schema.js';
import { startFakeOidcProvider } from '../test/fake-oidc-provider.js';
import { CookieJar, follow, freePort, locationOf } from '../test/http-client.js';
import { closeTestContext, createTestContext, type TestContext } from '../test/test-app.js';
import { ENGINES } from '../test/test-database.js';

async function listening(engine: (typeof ENGINES)[number], env: Record<string, string> = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Every test here starts sign-ins from 127.0.0.1: the per-address limit meant for people would throttle them.
  const ctx = await createTestContext(engine, {
    PORT: String(port),
    PUBLIC_URL: base,
    SIGN_IN_RATE_LIMIT: '10000',
    ...env,
  });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  return { ctx, base };
}

const sessionCount = async (ctx: TestContext) =>
  (await ctx.database.db.select({ n: count() }).from(sessions))[0]?.n ?? 0;

async function session(jar: CookieJar, base: string): Promise<SessionState> {
  return (await (await jar.fetch(`${base}/api/session`)).json()) as SessionState;
}

/** The random id a tab gives one sign-in attempt; it comes back on the page the popup ends on. */
const ATTEMPT = 'attempt_0123456789-abcdef';

/** Fills the development provider's sign-in page that `start` leads to; returns the provider's answer. */
async function submitDevLogin(jar: CookieJar, base: string, start: string, who: string) {
  const toLogin = await follow(jar, start);
  const action = /action="([^"]+)"/.exec((await toLogin.response?.text()) ?? '')?.[1] ?? '';
  return jar.fetch(new URL(action, base).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: `${who}@example.test`, name: who }).toString(),
  });
}

/** Signs in through the development provider's page, as a person would, and returns where the flow ended. */
async function devSignIn(
  jar: CookieJar,
  base: string,
  role: string,
  who: { email: string; name: string },
  returnTo = '/',
  attempt = ATTEMPT,
) {
  const toLogin = await follow(
    jar,
    `${base}/auth/${role}/start?returnTo=${encodeURIComponent(returnTo)}&popup=1&attempt=${attempt}`,
  );
  const page = await toLogin.response?.text();
  expect(page).toContain('<label for="email">Email</label>');
  expect(page).toContain('<label for="name">Name</label>');
  const action = /action="([^"]+)"/.exec(page ?? '')?.[1] ?? '';
  const posted = await jar.fetch(new URL(action, base).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(who).toString(),
  });
  const end = await follow(
    jar,
    locationOf(posted, base),
    (url) => url.startsWith(`${base}/auth/done`) || url === `${base}${returnTo}`,
  );
  if (end.response)
    throw new Error(
      `sign-in stopped at ${end.url}: ${end.response.status} ${(await end.response.text()).replace(/\s+/g, ' ').slice(0, 1500)}`,
    );
  return end;
}

describe.each(ENGINES)('sign-in with the development provider [%s]', (engine) => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => ({ ctx, base } = await listening(engine)));
  afterAll(async () => closeTestContext(ctx));

  it('signs a customer in through the popup flow, and the same email is the same user', async () => {
    const jar = new CookieJar();
    const end = await devSignIn(
      jar,
      base,
      'customer',
      { email: 'ada@example.test', name: 'Ada' },
      '/ShoppingCart',
    );
    expect(end.url).toBe(
      `${base}/auth/done?role=customer&status=ok&attempt=${ATTEMPT}&returnTo=%2FShoppingCart`,
    );
    const state = await session(jar, base);
    expect(state.kitchen).toBeNull();
    expect(state.customer).toMatchObject({ displayName: 'Ada', email: 'ada@example.test' });
    expect([...jar.cookies.keys()].some((k) => k === 'customer_session')).toBe(true);

    const again = new CookieJar();
    await devSignIn(again, base, 'customer', { email: 'ada@example.test', name: 'Ada L.' });
    const second = await session(again, base);
    expect(second.customer?.uid).toBe(state.customer?.uid);
    expect(second.customer?.displayName).toBe('Ada L.');
  });

  it('keeps kitchen and customer sessions apart: signing out of one leaves the other', async () => {
    const jar = new CookieJar();
    await devSignIn(jar, base, 'kitchen', { email: 'cook@example.test', name: 'Cook' });
    const eater = await devSignIn(jar, base, 'customer', { email: 'eater@example.test', name: 'Eater' });
    expect(eater.url).toContain('status=ok');
    let state = await session(jar, base);
    expect(state.kitchen?.email).toBe('cook@example.test');
    expect(state.customer?.email).toBe('eater@example.test');

    const before = await sessionCount(ctx);
    const out = await jar.fetch(`${base}/auth/kitchen/sign-out`, {
      method: 'POST',
      headers: { origin: base },
    });
    expect(out.status).toBe(204);
    expect(await sessionCount(ctx)).toBe(before - 1); // deleted on the server, not only forgotten by the browser
    state = await session(jar, base);
    expect(state.kitchen).toBeNull();
    expect(state.customer?.email).toBe('eater@example.test');

    await devSignIn(jar, base, 'kitchen', { email: 'cook@example.test', name: 'Cook' });
    await jar.fetch(`${base}/auth/customer/sign-out`, { method: 'POST', headers: { origin: base } });
    state = await session(jar, base);
    expect(state.customer).toBeNull();
    expect(state.kitchen?.email).toBe('cook@example.test');
  });

  it('without the popup, returns to the page the user came from', async () => {
    const jar = new CookieJar();
    const start = `${base}/auth/kitchen/start?returnTo=${encodeURIComponent('/KitchenRegister')}`;
    const posted = await submitDevLogin(jar, base, start, 'full');
    const end = await follow(jar, locationOf(posted, base), (url) => url === `${base}/KitchenRegister`);
    expect(end.url).toBe(`${base}/KitchenRegister`);
    expect((await session(jar, base)).kitchen?.email).toBe('full@example.test');
  });

  // Paths that a URL parser turns into "//evil.example" (another host, for a browser), or that it reads as such.
  it.each([
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/a/..//evil.example',
    '/a/%2e%2e//evil.example/x?y=1#z',
    '/././/evil.example',
    '/\t/evil.example',
    '/.\t//evil.example',
    '/\n/evil.example',
    '/%09/evil.example',
    '/%5C%5Cevil.example',
    '/%5c/evil.example',
    '/.%5C/evil.example',
    '/%252e//evil.example',
    '/%252F%252Fevil.example',
    '/%2F/evil.example',
    '/.%2F/evil.example',
    '/./\\evil.example',
    '/\\evil.example',
    '\t//evil.example',
  ])('after a sign-in without the popup, stays on our origin for the return path %j', async (returnTo) => {
    const jar = new CookieJar();
    const start = `${base}/auth/customer/start?returnTo=${encodeURIComponent(returnTo)}`;
    const started = await jar.fetch(start);
    if (started.status === 400) {
      expect(await started.json()).toMatchObject({ field: 'returnTo' });
      return;
    }
    const posted = await submitDevLogin(jar, base, start, 'wanderer');
    const callback = await follow(jar, locationOf(posted, base), (url) =>
      url.startsWith(`${base}/auth/callback`),
    );
    const location = (await jar.fetch(callback.url)).headers.get('location') ?? '';
    expect((await session(jar, base)).customer?.email).toBe('wanderer@example.test');
    expect(location).toMatch(/^\/(?![/\\])/);
    expect(location).not.toContain('\\');
    expect(new URL(location, base).origin).toBe(base);
  });

  it('carries the attempt from the start to the page the popup ends on, also when the sign-in fails', async () => {
    const ok = await devSignIn(new CookieJar(), base, 'customer', { email: 'att@example.test', name: 'Att' });
    expect(new URL(ok.url).searchParams.get('attempt')).toBe(ATTEMPT);

    const jar = new CookieJar();
    const other = 'Zz_9'.repeat(8);
    const posted = await submitDevLogin(
      jar,
      base,
      `${base}/auth/customer/start?popup=1&attempt=${other}`,
      'att',
    );
    const callback = new URL(
      (await follow(jar, locationOf(posted, base), (url) => url.startsWith(`${base}/auth/callback`))).url,
    );
    callback.searchParams.delete('code');
    const done = new URL(locationOf(await jar.fetch(callback.href), base));
    expect(done.pathname).toBe('/auth/done');
    expect(done.searchParams.get('status')).toBe('failed');
    expect(done.searchParams.get('attempt')).toBe(other);
  });

  it.each(['short', 'x'.repeat(65), 'has space in it 123456', '<script>alert(1)</script>', 'é'.repeat(20)])(
    'refuses a malformed attempt id (%j) before anything starts',
    async (attempt) => {
      const res = await fetch(`${base}/auth/customer/start?popup=1&attempt=${encodeURIComponent(attempt)}`, {
        redirect: 'manual',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ field: 'attempt' });
    },
  );

  it.each(['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)'])(
    'refuses a return path to another origin (%s) before anything starts',
    async (returnTo) => {
      const before = await sessionCount(ctx);
      const res = await fetch(`${base}/auth/customer/start?returnTo=${encodeURIComponent(returnTo)}`, {
        redirect: 'manual',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ field: 'returnTo' });
      expect(await sessionCount(ctx)).toBe(before);
    },
  );

  it('refuses a tampered state and a replayed callback, creating no session', async () => {
    const jar = new CookieJar();
    const toLogin = await follow(jar, `${base}/auth/customer/start?returnTo=%2F&popup=1`);
    const action = /action="([^"]+)"/.exec((await toLogin.response?.text()) ?? '')?.[1] ?? '';
    const posted = await jar.fetch(new URL(action, base).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=mallory%40example.test&name=Mallory',
    });
    const atCallback = await follow(jar, locationOf(posted, base), (url) =>
      url.startsWith(`${base}/auth/callback`),
    );
    const before = await sessionCount(ctx);

    const tampered = new URL(atCallback.url);
    tampered.searchParams.set('state', `customer.${'x'.repeat(43)}`);
    const copied = jar.clone();
    const refused = await jar.fetch(tampered.href);
    expect(locationOf(refused, base)).toContain('status=failed');
    expect(await sessionCount(ctx)).toBe(before);

    // Replaying the genuine callback: the one-shot flow cookie is gone...
    const replay = await jar.fetch(atCallback.url);
    expect(locationOf(replay, base)).toContain('status=failed');
    // ...and even with it restored, the provider will not redeem the same code twice once it has been used.
    const first = await copied.clone().fetch(atCallback.url);
    expect(locationOf(first, base)).toContain('status=ok');
    const afterFirst = await sessionCount(ctx);
    const second = await copied.clone().fetch(atCallback.url);
    expect(locationOf(second, base)).toContain('status=failed');
    expect(await sessionCount(ctx)).toBe(afterFirst);
  });

  it('keeps, on a first sign-in, the language the browser asked for; a language chosen since stays', async () => {
    const localeOf = async (email: string) =>
      (await ctx.database.db.select({ locale: users.locale }).from(users).where(eq(users.email, email)))[0]
        ?.locale;
    const jar = new CookieJar();
    jar.cookies.set('lang', 'fr');
    await devSignIn(jar, base, 'customer', { email: 'amelie@example.test', name: 'Amélie' });
    expect(await localeOf('amelie@example.test')).toBe('fr');
    const chosen = await jar.fetch(`${base}/api/account/customer/language`, {
      method: 'PUT',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ locale: 'es' }),
    });
    expect(chosen.status).toBe(204);
    const other = new CookieJar();
    other.cookies.set('lang', 'ar');
    await devSignIn(other, base, 'customer', { email: 'amelie@example.test', name: 'Amélie' });
    expect(await localeOf('amelie@example.test')).toBe('es');
    // The page the popup ends on speaks the browser's language.
    const page = await fetch(`${base}/auth/done?role=customer&status=ok`, { headers: { cookie: 'lang=ar' } });
    expect(await page.text()).toContain('<html lang="ar" dir="rtl">');
  });

  it('serves the page the popup ends on, which tells the opener without inline script', async () => {
    const page = await fetch(`${base}/auth/done?role=customer&status=ok`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script src="/auth/done.js"></script>');
    // What the script does is tested in Chromium (tests/e2e/sign-in-attempts.spec.ts).
    const script = await fetch(`${base}/auth/done.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
  });
});

describe('sign-in against a Google-like provider on loopback', () => {
  const client = { clientId: 'google-client-id', clientSecret: 'google-client-secret' };
  let provider: Awaited<ReturnType<typeof startFakeOidcProvider>>;
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    provider = await startFakeOidcProvider(client);
    ({ ctx, base } = await listening('pglite', {
      GOOGLE_CLIENT_ID: client.clientId,
      GOOGLE_CLIENT_SECRET: client.clientSecret,
      OIDC_ISSUER: provider.issuer,
      OPERATOR_EMAILS: 'someone@example.test',
    }));
  });
  afterAll(async () => {
    await closeTestContext(ctx);
    await provider.close();
  });

  async function attempt(mode: typeof provider.state.mode, role = 'kitchen') {
    provider.state.mode = mode;
    const jar = new CookieJar();
    const end = await follow(jar, `${base}/auth/${role}/start?returnTo=%2F&popup=1`, (url) =>
      url.startsWith(`${base}/auth/done`),
    );
    return { jar, end: end.url };
  }

  it('signs in with a valid RS256 ID token', async () => {
    const { jar, end } = await attempt('valid');
    expect(end).toContain('status=ok');
    expect((await session(jar, base)).kitchen).toMatchObject({
      email: 'someone@example.test',
      displayName: 'Some One',
    });
  });

  it('keeps the name the provider gives as one line, without bidi overrides; none left, the email’s local part', async () => {
    const named = async (name: string) => {
      provider.state.name = name;
      try {
        const { jar, end } = await attempt('valid');
        expect(end).toContain('status=ok');
        const stored = await ctx.database.db
          .select({ displayName: users.displayName })
          .from(users)
          .where(eq(users.email, 'someone@example.test'));
        expect(stored).toHaveLength(1);
        expect((await session(jar, base)).kitchen?.displayName).toBe(stored[0]?.displayName);
        return stored[0]?.displayName;
      } finally {
        provider.state.name = 'Some One';
      }
    };
    expect(await named('Mallory\r\nOperator: \u202Egnp.exe\t ')).toBe('Mallory Operator: gnp.exe');
    expect(await named(' \u2066Ada\u2069\u0000 L.')).toBe('Ada L.');
    expect(await named('\u202E\r\n\u202C')).toBe('someone');
    expect(await named('Some One')).toBe('Some One');
  });

  it.each(['wrong-nonce', 'expired', 'forged', 'wrong-audience'] as const)(
    'refuses an ID token that is %s',
    async (mode) => {
      const before = await sessionCount(ctx);
      const { jar, end } = await attempt(mode);
      expect(end).toContain('status=failed');
      expect(await sessionCount(ctx)).toBe(before);
      expect((await session(jar, base)).kitchen).toBeNull();
    },
  );

  it('makes a listed operator an operator only when the provider vouches for the email', async () => {
    const listed = await attempt('valid', 'operator');
    expect(listed.end).toContain('status=ok');
    expect((await session(listed.jar, base)).operator).toMatchObject({ email: 'someone@example.test' });
    const before = await sessionCount(ctx);
    const unverified = await attempt('unverified-email', 'operator');
    expect(unverified.end).toContain('status=failed');
    expect(await sessionCount(ctx)).toBe(before);
    expect((await session(unverified.jar, base)).operator).toBeNull();
  });

  it('serves nothing of the development provider when a Google client is configured', async () => {
    const res = await fetch(`${base}/dev-idp/.well-known/openid-configuration`);
    expect(res.status).toBe(404);
  });
});

describe.each(ENGINES)('signing out ends the live streams of that session [%s]', (engine) => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => ({ ctx, base } = await listening(engine)));
  afterAll(async () => closeTestContext(ctx));

  it('closes a private stream at sign-out, and a reconnect is refused', async () => {
    const jar = new CookieJar();
    await devSignIn(jar, base, 'customer', { email: 'streamer@example.test', name: 'Streamer' });
    let opened: () => void = () => {};
    const firstSnapshot = new Promise<void>((resolve) => (opened = resolve));
    const closed = new Promise<void>((resolve, reject) => {
      const req = http.get(
        `${base}/api/orders/mine`,
        { headers: { accept: 'text/event-stream', cookie: jar.header('/api/orders/mine') } },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('event: snapshot')) opened();
          });
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
    });
    await firstSnapshot;
    const out = await jar.fetch(`${base}/auth/customer/sign-out`, {
      method: 'POST',
      headers: { origin: base },
    });
    expect(out.status).toBe(204);
    await closed;
    const again = await fetch(`${base}/api/orders/mine`, {
      headers: { accept: 'text/event-stream', cookie: `customer_session=stale` },
    });
    expect(again.status).toBe(401);
  });
});
