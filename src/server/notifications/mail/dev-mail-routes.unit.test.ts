import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../lib/config.js';
import { registerSecurityHeaders } from '../../lib/security-headers.js';
import { testConfig } from '../../test/test-app.js';
import { DEV_MAIL_PATH, registerDevMail } from './dev-mail-routes.js';
import { devMailbox, devMailer, type DevMail } from './mailer.js';

const HOSTILE = '<script>alert(1)</script>';

async function appWith(config: Config): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.decorate('config', config);
  registerSecurityHeaders(app, { https: false });
  await registerDevMail(app);
  await app.ready();
  return app;
}

describe('the development mailbox at /dev-mail', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    devMailbox.clear();
    app = await appWith(testConfig());
    const mailer = devMailer(devMailbox, 'HomeCooked <n@localhost>', app.log);
    await mailer.send({
      to: 'cook@example.test',
      subject: `New order: ${HOSTILE}`,
      text: `Ordered ${HOSTILE}`,
      html: `<html><body><p>Ordered &lt;script&gt;</p><script>alert(3)</script></body></html>`,
      messageId: '<order:1:new:2@homecooked>',
      unsubscribeUrl: 'http://localhost:3000/api/notifications/unsubscribe?token=t',
    });
    await mailer.send({
      to: 'ana@example.test',
      subject: 'Ana Kitchen accepted your order',
      text: 'Accepted',
      html: '<p>Accepted</p>',
      messageId: '<order:1:accepted:3@homecooked>',
      unsubscribeUrl: 'http://localhost:3000/api/notifications/unsubscribe?token=u',
    });
  });
  afterEach(() => app.close());

  it('lists what was sent, newest first: to, subject and time, each linked, everything escaped', async () => {
    const res = await app.inject({ url: DEV_MAIL_PATH, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const [accepted, order] = devMailbox.list() as DevMail[];
    expect(res.body.indexOf('ana@example.test')).toBeLessThan(res.body.indexOf('cook@example.test'));
    expect(res.body).toContain(
      `<a href="${DEV_MAIL_PATH}/${order?.id}">New order: &lt;script&gt;alert(1)&lt;/script&gt;</a>`,
    );
    expect(res.body).toContain(
      `<a href="${DEV_MAIL_PATH}/${accepted?.id}">Ana Kitchen accepted your order</a>`,
    );
    expect(res.body).not.toContain(HOSTILE);
  });

  it('answers JSON for tests: /dev-mail.json (?to= one address), or accept: application/json', async () => {
    const all = await app.inject({ url: `${DEV_MAIL_PATH}.json` });
    expect(all.statusCode).toBe(200);
    expect(all.json<DevMail[]>().map((m) => m.to)).toEqual(['ana@example.test', 'cook@example.test']);
    const cook = await app.inject({ url: `${DEV_MAIL_PATH}.json?to=COOK@example.test` });
    const [mail] = cook.json<DevMail[]>();
    expect(cook.json<DevMail[]>()).toHaveLength(1);
    expect(mail).toMatchObject({
      to: 'cook@example.test',
      subject: `New order: ${HOSTILE}`,
      messageId: '<order:1:new:2@homecooked>',
      unsubscribeUrl: 'http://localhost:3000/api/notifications/unsubscribe?token=t',
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    const asJson = await app.inject({ url: DEV_MAIL_PATH, headers: { accept: 'application/json' } });
    expect(asJson.json()).toEqual(all.json());
    const one = await app.inject({
      url: `${DEV_MAIL_PATH}/${mail?.id}`,
      headers: { accept: 'application/json' },
    });
    expect(one.json()).toEqual(mail);
  });

  it('shows one mail: its headers, its text, and its HTML in a sandboxed frame that runs nothing', async () => {
    const [, order] = devMailbox.list() as DevMail[];
    const res = await app.inject({ url: `${DEV_MAIL_PATH}/${order?.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('List-Unsubscribe-Post');
    expect(res.body).toContain('&lt;order:1:new:2@homecooked&gt;');
    expect(res.body).toContain('<pre>Ordered &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).toContain(
      `<iframe title="The email's HTML" sandbox src="${DEV_MAIL_PATH}/${order?.id}/html">`,
    );
    expect(res.body).not.toContain(HOSTILE);
    expect(res.body).not.toContain('<script>alert(3)');

    const framed = await app.inject({ url: `${DEV_MAIL_PATH}/${order?.id}/html` });
    expect(framed.statusCode).toBe(200);
    expect(framed.body).toContain('<p>Ordered &lt;script&gt;</p>');
    const csp = String(framed.headers['content-security-policy']);
    expect(csp).toMatch(/^sandbox;/);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).toContain("frame-ancestors 'self'");
    expect(framed.headers['x-frame-options']).toBe('SAMEORIGIN');
    // The mailbox's own pages keep the app's headers.
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");

    expect((await app.inject({ url: `${DEV_MAIL_PATH}/nope` })).statusCode).toBe(404);
    expect((await app.inject({ url: `${DEV_MAIL_PATH}/nope/html` })).statusCode).toBe(404);
  });

  it('is not served in production, nor where the development sign-in is not', async () => {
    for (const config of [
      { ...testConfig(), nodeEnv: 'production' as const },
      { ...testConfig(), devSignIn: false },
    ]) {
      const other = await appWith(config);
      try {
        expect((await other.inject({ url: DEV_MAIL_PATH })).statusCode).toBe(404);
        expect((await other.inject({ url: `${DEV_MAIL_PATH}.json` })).statusCode).toBe(404);
      } finally {
        await other.close();
      }
    }
  });
});
