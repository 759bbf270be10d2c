import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../lib/config.js';
import { header, SmtpWorld } from '../../test/smtp-world.js';
import { testConfig } from '../../test/test-app.js';
import type { OutgoingMail } from '../channels.js';
import { createMailer, devMailbox, DevMailbox, devMailer } from './mailer.js';

/** A logger that keeps what it was told (the level and the message). */
function recordingLog() {
  const lines: { level: string; message: string }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push({ level, message: String(args.find((a) => typeof a === 'string') ?? '') });
  const log = {
    level: 'info',
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => {},
    child: () => log,
  };
  return { log: log as unknown as FastifyBaseLogger, lines };
}

const withEnv = (config: Config, nodeEnv: Config['nodeEnv'], smtpUrl?: string): Config => ({
  ...config,
  nodeEnv,
  notifications: { ...config.notifications, smtpUrl },
});

const mail = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
  to: 'ana@example.test',
  subject: 'New order: Dal × 2, Rice',
  text: 'ana@example.test ordered Dal × 2, Rice.\n\nOpen your orders: https://homecooked.example/KitchenOrders',
  html: '<!doctype html><html><body><p>ana@example.test ordered Dal × 2, Rice.</p></body></html>',
  messageId: '<order:0b7c:new:5f1e@homecooked>',
  unsubscribeUrl: 'https://homecooked.example/api/notifications/unsubscribe?token=u.order-new.sig',
  ...overrides,
});

describe('the SMTP mailer (nodemailer, to a real SMTP server in this process)', () => {
  const smtp = new SmtpWorld();
  let smtpUrl: string;
  beforeAll(async () => {
    smtpUrl = await smtp.start();
  });
  afterAll(() => smtp.close());

  it('sends plain text and HTML from MAIL_FROM, with the Message-ID given and a one-click List-Unsubscribe', async () => {
    const config = withEnv(
      testConfig({ MAIL_FROM: 'HomeCooked <orders@homecooked.example>' }),
      'production',
      smtpUrl,
    );
    const mailer = await createMailer(config, recordingLog().log);
    if (!mailer) throw new Error('no mailer');
    try {
      await mailer.send(mail({ to: 'cook-1@example.test' }));
    } finally {
      await mailer.close();
    }
    const [received] = smtp.to('cook-1@example.test');
    if (!received) throw new Error('nothing arrived');
    expect(received.from).toBe('orders@homecooked.example');
    expect(header(received.raw, 'From')).toBe('HomeCooked <orders@homecooked.example>');
    expect(header(received.raw, 'To')).toBe('cook-1@example.test');
    expect(received.subject).toBe('New order: Dal × 2, Rice');
    expect(received.messageId).toBe('<order:0b7c:new:5f1e@homecooked>');
    expect(header(received.raw, 'List-Unsubscribe')).toBe(
      '<https://homecooked.example/api/notifications/unsubscribe?token=u.order-new.sig>',
    );
    expect(header(received.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const parsed = await simpleParser(received.raw);
    expect(parsed.text).toContain('ana@example.test ordered Dal × 2, Rice.');
    expect(parsed.html).toContain('<p>ana@example.test ordered Dal × 2, Rice.</p>');
    // The way out, visible in both parts too.
    expect(parsed.text).toContain(
      'Turn off these emails: https://homecooked.example/api/notifications/unsubscribe?token=u.order-new.sig',
    );
    expect(parsed.html).toMatch(
      /<a href="https:\/\/homecooked\.example\/api\/notifications\/unsubscribe\?token=u\.order-new\.sig"[^>]*>Turn off these emails<\/a><\/p><\/body>/,
    );
  });

  it('throws when the relay refuses (an outage), and sends again once it is back', async () => {
    const mailer = await createMailer(withEnv(testConfig(), 'production', smtpUrl), recordingLog().log);
    if (!mailer) throw new Error('no mailer');
    try {
      smtp.down = true;
      await expect(mailer.send(mail({ to: 'outage@example.test' }))).rejects.toThrow();
      smtp.down = false;
      await mailer.send(mail({ to: 'outage@example.test' }));
      expect(smtp.to('outage@example.test')).toHaveLength(1);
    } finally {
      smtp.down = false;
      await mailer.close();
    }
  });

  it('throws when the relay refuses the recipient', async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (_address, _session, callback) => {
        const error = new Error('No such user here') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const { port } = refusing.server.address() as AddressInfo;
    const mailer = await createMailer(
      withEnv(testConfig(), 'production', `smtp://127.0.0.1:${port}`),
      recordingLog().log,
    );
    if (!mailer) throw new Error('no mailer');
    try {
      await expect(mailer.send(mail())).rejects.toThrow(/No such user here/);
    } finally {
      await mailer.close();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });

  it('gives up on a relay that accepts the connection and never greets, after its timeout', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const mailer = await createMailer(
      withEnv(testConfig(), 'production', `smtp://127.0.0.1:${port}`),
      recordingLog().log,
      { timeoutMs: 300 },
    );
    if (!mailer) throw new Error('no mailer');
    try {
      const started = Date.now();
      await expect(mailer.send(mail())).rejects.toThrow(/greeting|timeout/i);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await mailer.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('without SMTP_URL', () => {
  beforeEach(() => devMailbox.clear());

  it('keeps mails in the development mailbox, newest first, with their headers and the unsubscribe footer', async () => {
    const mailer = await createMailer(withEnv(testConfig(), 'development'), recordingLog().log);
    if (!mailer) throw new Error('no mailer');
    await mailer.send(mail({ subject: 'First' }));
    await mailer.send(mail({ subject: 'Second', to: 'bo@example.test' }));
    const [second, first] = devMailbox.list();
    expect([second?.subject, first?.subject]).toEqual(['Second', 'First']);
    expect(second).toMatchObject({
      to: 'bo@example.test',
      messageId: '<order:0b7c:new:5f1e@homecooked>',
      headers: {
        'List-Unsubscribe': `<${mail().unsubscribeUrl}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    expect(second?.text).toContain(`Turn off these emails: ${mail().unsubscribeUrl}`);
    expect(devMailbox.get(second?.id ?? '')).toBe(second);
  });

  it('keeps the last 200 only', async () => {
    const box = new DevMailbox(200);
    const mailer = devMailer(box, 'HomeCooked <n@example.test>', recordingLog().log);
    for (let i = 0; i < 205; i++) await mailer.send(mail({ subject: `Mail ${i}` }));
    expect(box.list()).toHaveLength(200);
    expect(box.list()[0]?.subject).toBe('Mail 204');
    expect(box.list()[199]?.subject).toBe('Mail 5');
  });

  it('sends none in production, and says so at start', async () => {
    const { log, lines } = recordingLog();
    expect(await createMailer(withEnv(testConfig(), 'production'), log)).toBeNull();
    expect(lines).toContainEqual({
      level: 'warn',
      message: 'SMTP_URL is not set: no notification emails will be sent',
    });
  });
});
