import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { users } from '../../src/server/db/schema.js';
import { describeEachEngine, signedIn, type TestContext } from '../../src/server/test/test-app.js';

/** PUT /api/account/:role/language as the browser sends it (our origin), with `cookie` if given. */
const choose = (ctx: TestContext, role: string, body: unknown, cookie?: string) =>
  ctx.app.inject({
    method: 'PUT',
    url: `/api/account/${role}/language`,
    headers: { origin: ctx.config.publicUrl, ...(cookie ? { cookie } : {}) },
    payload: body as Record<string, unknown>,
  });

const localeOf = async (ctx: TestContext, userId: string) => {
  const [row] = await ctx.database.db
    .select({ locale: users.locale })
    .from(users)
    .where(eq(users.id, userId));
  return row?.locale;
};

describeEachEngine("'Language': the one a person chose, for their emails and pushes", (get) => {
  it('keeps the language the signed-in customer or cook chose (204), and a later choice over it', async () => {
    const ctx = get();
    const customer = await signedIn(ctx, 'customer');
    expect(await localeOf(ctx, customer.user.id)).toBeNull();
    const res = await choose(ctx, 'customer', { locale: 'fr' }, customer.cookie);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await localeOf(ctx, customer.user.id)).toBe('fr');
    // 'Download my data' says it too.
    const data = await ctx.app.inject({
      url: '/api/account/customer/export',
      headers: { origin: ctx.config.publicUrl, cookie: customer.cookie },
    });
    expect(data.json<{ profile: { language: string | null } }>().profile.language).toBe('fr');

    const cook = await signedIn(ctx, 'kitchen');
    expect((await choose(ctx, 'kitchen', { locale: 'ar' }, cook.cookie)).statusCode).toBe(204);
    expect((await choose(ctx, 'kitchen', { locale: 'hi' }, cook.cookie)).statusCode).toBe(204);
    expect(await localeOf(ctx, cook.user.id)).toBe('hi');
    // Nobody else's changes.
    expect(await localeOf(ctx, customer.user.id)).toBe('fr');
  });

  it('refuses a language not offered (400 naming locale), and keeps the one chosen', async () => {
    const ctx = get();
    const customer = await signedIn(ctx, 'customer');
    await choose(ctx, 'customer', { locale: 'es' }, customer.cookie);
    for (const body of [{ locale: 'de' }, { locale: 'en-XA' }, { locale: 42 }, {}]) {
      const res = await choose(ctx, 'customer', body, customer.cookie);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'locale' });
    }
    expect(await localeOf(ctx, customer.user.id)).toBe('es');
  });

  it('asks to sign in (401) without a session of the role, and refuses an unknown role (400)', async () => {
    const ctx = get();
    expect((await choose(ctx, 'customer', { locale: 'fr' })).statusCode).toBe(401);
    const customer = await signedIn(ctx, 'customer');
    // A customer's session does not speak for a kitchen.
    expect((await choose(ctx, 'kitchen', { locale: 'fr' }, customer.cookie)).statusCode).toBe(401);
    expect(await localeOf(ctx, customer.user.id)).toBeNull();
    const res = await choose(ctx, 'operator', { locale: 'fr' }, customer.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'role' });
  });
});
