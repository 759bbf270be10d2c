import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionState } from '../../shared/auth.js';
import { sessions } from '../db/schema.js';
import { CookieJar, follow, freePort, locationOf } from '../test/http-client.js';
import { closeTestContext, createTestContext, type TestContext } from '../test/test-app.js';
import { ENGINES } from '../test/test-database.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';

const ATTEMPT = 'attempt_operator-0123456789';

/** Signs in as `role` through the development provider's page; returns the URL the flow ended on. */
async function devSignIn(jar: CookieJar, base: string, role: string, email: string, name: string) {
  const toLogin = await follow(
    jar,
    `${base}/auth/${role}/start?returnTo=%2FOperator&popup=1&attempt=${ATTEMPT}`,
  );
  const action = /action="([^"]+)"/.exec((await toLogin.response?.text()) ?? '')?.[1] ?? '';
  const posted = await jar.fetch(new URL(action, base).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, name }).toString(),
  });
  const end = await follow(jar, locationOf(posted, base), (url) => url.startsWith(`${base}/auth/done`));
  if (end.response) throw new Error(`sign-in stopped at ${end.url}: ${end.response.status}`);
  return end.url;
}

describe.each(ENGINES)('operator sign-in [%s]', (engine) => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestContext(engine, {
      PORT: String(port),
      PUBLIC_URL: base,
      SIGN_IN_RATE_LIMIT: '10000',
      ...operatorEnv,
    });
    await ctx.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => closeTestContext(ctx));

  const operatorSessions = async () =>
    (await ctx.database.db.select({ n: count() }).from(sessions).where(eq(sessions.role, 'operator')))[0]?.n;
  const session = async (jar: CookieJar) =>
    (await (await jar.fetch(`${base}/api/session`)).json()) as SessionState;

  it('signs a listed email in as an operator, with its own cookie, and signs it out alone', async () => {
    const jar = new CookieJar();
    // Listed in another case: the list is compared without case.
    const end = await devSignIn(jar, base, 'operator', OPERATOR_EMAIL.toUpperCase(), 'Olga Ops');
    expect(end).toContain('role=operator&status=ok');
    expect(jar.cookies.has('operator_session')).toBe(true);
    await devSignIn(jar, base, 'customer', 'eater@example.test', 'Eater');
    const state = await session(jar);
    expect(state.operator).toMatchObject({ displayName: 'Olga Ops' });
    expect(state.customer).toMatchObject({ email: 'eater@example.test' });
    expect(state.kitchen).toBeNull();
    expect((await jar.fetch(`${base}/api/operator/moderation`)).status).toBe(200);

    const out = await jar.fetch(`${base}/auth/operator/sign-out`, {
      method: 'POST',
      headers: { origin: base },
    });
    expect(out.status).toBe(204);
    const after = await session(jar);
    expect(after.operator).toBeNull();
    expect(after.customer).toMatchObject({ email: 'eater@example.test' });
    expect((await jar.fetch(`${base}/api/operator/moderation`)).status).toBe(401);
  });

  it('refuses to create an operator session for an email not in OPERATOR_EMAILS: a failed sign-in', async () => {
    const before = await operatorSessions();
    const jar = new CookieJar();
    const end = await devSignIn(jar, base, 'operator', 'mallory@example.test', 'Mallory');
    expect(end).toContain('role=operator&status=failed');
    expect(jar.cookies.has('operator_session')).toBe(false);
    expect(await operatorSessions()).toBe(before);
    expect((await session(jar)).operator).toBeNull();
    expect((await jar.fetch(`${base}/api/operator/moderation`)).status).toBe(401);
    // The same person may still sign in as a customer.
    expect(await devSignIn(jar, base, 'customer', 'mallory@example.test', 'Mallory')).toContain('status=ok');
  });
});
