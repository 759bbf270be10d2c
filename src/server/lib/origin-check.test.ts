import { expect, it } from 'vitest';
import { describeEachEngine, signedIn } from '../test/test-app.js';
import { sessions } from '../db/schema.js';
import { eq } from 'drizzle-orm';

describeEachEngine('CSRF origin check', (get) => {
  it('refuses a cross-site form POST and changes nothing', async () => {
    const { app, database } = get();
    const { user, cookie } = await signedIn(get(), 'customer');
    const res = await app.inject({
      method: 'POST',
      url: '/auth/customer/sign-out',
      headers: {
        cookie,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: '',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    const left = await database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(left).toHaveLength(1);
  });

  it('refuses a same-site but cross-origin request flagged by the browser', async () => {
    const { cookie } = await signedIn(get(), 'customer');
    const res = await get().app.inject({
      method: 'POST',
      url: '/auth/customer/sign-out',
      headers: { cookie, 'sec-fetch-site': 'same-site' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('accepts our own origin', async () => {
    const { cookie } = await signedIn(get(), 'customer');
    const res = await get().app.inject({
      method: 'POST',
      url: '/auth/customer/sign-out',
      headers: { cookie, origin: get().config.publicUrl, 'sec-fetch-site': 'same-origin' },
    });
    expect(res.statusCode).toBe(204);
  });
});
