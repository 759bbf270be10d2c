import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../../shared/errors.js';
import { kitchens, notificationSettings, pushSubscriptions } from '../../db/schema.js';
import { buildKitchen, buildOrder } from '../../test/builders.js';
import { header, SmtpWorld } from '../../test/smtp-world.js';
import { buildUser, describeEachEngine, type TestContext } from '../../test/test-app.js';
import { renderNotice } from '../render.js';
import { createMailer } from './mailer.js';
import { readUnsubscribeToken, UNSUBSCRIBE_PATH, unsubscribeToken, unsubscribeUrl } from './unsubscribe.js';

const smtp = new SmtpWorld();
let smtpUrl: string;
beforeAll(async () => {
  smtpUrl = await smtp.start();
});
afterAll(() => smtp.close());

const settingsOf = (ctx: TestContext, userId: string) =>
  ctx.database.db
    .select({ kind: notificationSettings.kind, email: notificationSettings.email })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));

/** The path and query of an unsubscribe link, for inject. */
const pathOf = (url: string) => url.slice(url.indexOf(UNSUBSCRIBE_PATH));

describeEachEngine('one-click unsubscribe from a notification email', (get) => {
  const post = (url: string, headers: Record<string, string> = {}, payload?: string) =>
    get().app.inject({ method: 'POST', url, headers, ...(payload !== undefined ? { payload } : {}) });

  it('makes a token only the server can make, for one person and one kind', async () => {
    const { app } = get();
    const userId = randomUUID();
    const token = unsubscribeToken(app, userId, 'order-accepted');
    expect(token).toMatch(/^[0-9a-f-]{36}\.order-accepted\.[A-Za-z0-9_-]{43}$/);
    expect(readUnsubscribeToken(app, token)).toEqual({ userId, kind: 'order-accepted' });
    const [, , signature] = token.split('.');
    for (const forged of [
      `${userId}.order-declined.${signature}`,
      `${randomUUID()}.order-accepted.${signature}`,
      `${userId}.order-accepted.${'A'.repeat(43)}`,
      `${userId}.order-accepted`,
      `${userId}.not-a-kind.${signature}`,
      `${token}.more`,
      '',
    ])
      expect(readUnsubscribeToken(app, forged), forged).toBeNull();
    expect(unsubscribeUrl(app, userId, 'order-accepted')).toBe(
      `${get().config.publicUrl}${UNSUBSCRIBE_PATH}?token=${token}`,
    );
  });

  it("turns that kind's email off with a POST of a good token, no session needed, as a mail program sends it", async () => {
    const customer = await buildUser(get());
    const url = pathOf(unsubscribeUrl(get().app, customer.id, 'order-dispatched'));
    const res = await post(
      url,
      { 'content-type': 'application/x-www-form-urlencoded' },
      'List-Unsubscribe=One-Click',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ kind: 'order-dispatched', label: 'Your order on its way', email: false });
    expect(await settingsOf(get(), customer.id)).toEqual([{ kind: 'order-dispatched', email: false }]);
    // Again: still off, nothing else changed.
    expect((await post(url)).statusCode).toBe(200);
    expect(await settingsOf(get(), customer.id)).toEqual([{ kind: 'order-dispatched', email: false }]);
  });

  it('refuses a forged or missing token with a 400 naming token, changing nothing', async () => {
    const customer = await buildUser(get());
    const token = unsubscribeToken(get().app, customer.id, 'order-accepted');
    const forged = token.replace('order-accepted', 'order-declined');
    for (const url of [
      `${UNSUBSCRIBE_PATH}?token=${forged}`,
      `${UNSUBSCRIBE_PATH}?token=nonsense`,
      UNSUBSCRIBE_PATH,
    ]) {
      const res = await post(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<ApiErrorBody>().field, url).toBe('token');
    }
    const page = await get().app.inject({ url: `${UNSUBSCRIBE_PATH}?token=${forged}` });
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('This link is not valid');
    expect(await settingsOf(get(), customer.id)).toEqual([]);
  });

  it('shows a page with a button on GET, and changes nothing (a link scanner follows links)', async () => {
    const customer = await buildUser(get());
    const url = pathOf(unsubscribeUrl(get().app, customer.id, 'order-accepted'));
    const page = await get().app.inject({ url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<strong>Your order accepted</strong>');
    expect(page.body).toContain(`<form method="post" action="${url.replace('&', '&amp;')}">`);
    expect(page.body).toContain('<button type="submit">Turn off these emails</button>');
    // Not the person's email: anyone holding the link sees the page.
    expect(page.body).not.toContain(customer.email);
    expect(await settingsOf(get(), customer.id)).toEqual([]);

    // The page's button: a form POST from our own page, answered with a page.
    const done = await post(
      url,
      {
        accept: 'text/html,application/xhtml+xml',
        origin: get().config.publicUrl,
        'content-type': 'application/x-www-form-urlencoded',
      },
      'List-Unsubscribe=One-Click',
    );
    expect(done.statusCode, done.body).toBe(200);
    expect(done.headers['content-type']).toMatch(/^text\/html/);
    expect(done.body).toContain('Emails turned off');
    expect(await settingsOf(get(), customer.id)).toEqual([{ kind: 'order-accepted', email: false }]);
    const after = await get().app.inject({ url });
    expect(after.body).toContain('These emails are off');
    expect(after.body).not.toContain('<form');
  });

  it("keeps the cook's new-order email on while the kitchen takes orders and has no push device", async () => {
    const { user } = await buildKitchen(get());
    const url = pathOf(unsubscribeUrl(get().app, user.id, 'order-new'));
    const page = await get().app.inject({ url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('New-order emails stay on');
    expect(page.body).not.toContain('<form');
    const refused = await post(url);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ApiErrorBody>().code).toBe('CONFLICT');
    expect(await settingsOf(get(), user.id)).toEqual([]);
    // Other kinds go off as any do.
    expect((await post(pathOf(unsubscribeUrl(get().app, user.id, 'review-new')))).statusCode).toBe(200);

    // With a device to be pushed to, or with the kitchen suspended, it can go off.
    await get()
      .database.db.insert(pushSubscriptions)
      .values({
        userId: user.id,
        endpoint: `https://push.example.test/${randomUUID()}`,
        p256dh: 'B'.repeat(87),
        auth: 'a'.repeat(22),
      });
    expect((await post(url)).statusCode).toBe(200);
    expect(await settingsOf(get(), user.id)).toEqual(
      expect.arrayContaining([
        { kind: 'order-new', email: false },
        { kind: 'review-new', email: false },
      ]),
    );

    const other = await buildKitchen(get());
    await get()
      .database.db.update(kitchens)
      .set({ suspendedAt: new Date() })
      .where(eq(kitchens.ownerId, other.user.id));
    expect((await post(pathOf(unsubscribeUrl(get().app, other.user.id, 'order-new')))).statusCode).toBe(200);
  });

  it('arrives over SMTP with its List-Unsubscribe link, and that link, POSTed, turns the email off', async () => {
    const cook = await buildKitchen(get());
    const customer = await buildUser(get(), { email: `unsub-${randomUUID().slice(0, 8)}@example.test` });
    const order = await buildOrder(get(), cook.kitchen, customer);
    const rendered = await renderNotice(
      get().database.db,
      { kind: 'order-delivered', subjectId: order.id, recipientId: customer.id },
      get().config.publicUrl,
      undefined,
      get().app.i18n.translator('en'),
    );
    if (!rendered) throw new Error('nothing rendered');
    const mailer = await createMailer(
      { ...get().config, notifications: { ...get().config.notifications, smtpUrl } },
      get().app.log,
    );
    if (!mailer) throw new Error('no mailer');
    try {
      await mailer.send({
        to: customer.email,
        ...rendered,
        messageId: `<order:${order.id}:delivered:${customer.id}@homecooked>`,
        unsubscribeUrl: unsubscribeUrl(get().app, customer.id, 'order-delivered'),
      });
    } finally {
      await mailer.close();
    }
    const [received] = smtp.to(customer.email);
    if (!received) throw new Error('nothing arrived');
    expect(received.subject).toBe(`Your order from ${cook.kitchen.name} was delivered`);
    const link = /^<(.+)>$/.exec(header(received.raw, 'List-Unsubscribe'))?.[1] ?? '';
    expect(link.startsWith(`${get().config.publicUrl}${UNSUBSCRIBE_PATH}?token=`)).toBe(true);
    expect((await post(pathOf(link))).statusCode).toBe(200);
    expect(await settingsOf(get(), customer.id)).toEqual([{ kind: 'order-delivered', email: false }]);
  });
});
