import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { createTransport } from 'nodemailer';
import { escapeHtml } from '../../lib/html.js';
import type { Config } from '../../lib/config.js';
import type { Mailer, OutgoingMail } from '../channels.js';

/** How long a relay may take to accept a connection, greet, or answer a command: a stalled one never hangs the worker. */
export const SMTP_TIMEOUT_MS = 10_000;

/** The headers every notification email carries besides From, To, Subject and Message-ID (RFC 2369, RFC 8058). */
export const unsubscribeHeaders = (url: string) => ({
  'List-Unsubscribe': `<${url}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});

/**
 * The mail's text and HTML with a visible way out at the end: the same link as its List-Unsubscribe header, for
 * mail programs that do not show that one.
 */
export function withUnsubscribeFooter(mail: OutgoingMail): { text: string; html: string } {
  const label = mail.unsubscribeLabel ?? 'Turn off these emails';
  const text = `${mail.text}\n\n--\n${label}: ${mail.unsubscribeUrl}\n`;
  const footer =
    `<p style="margin:24px 0 0;font-size:12px;color:#868e96">` +
    `<a href="${escapeHtml(mail.unsubscribeUrl)}" style="color:#868e96">${escapeHtml(label)}</a></p>`;
  const html = mail.html.includes('</body>')
    ? mail.html.replace('</body>', `${footer}</body>`)
    : `${mail.html}${footer}`;
  return { text, html };
}

/** A mail as the development mailbox keeps it. */
export interface DevMail {
  id: string;
  sentAt: string;
  from: string;
  to: string;
  subject: string;
  messageId: string;
  headers: Record<string, string>;
  text: string;
  html: string;
  unsubscribeUrl: string;
}

/**
 * The development mailbox: the last `capacity` mails this process sent, newest first, in memory (shown at
 * /dev-mail), where SMTP_URL is not set outside production.
 */
export class DevMailbox {
  private mails: DevMail[] = [];

  constructor(readonly capacity = 200) {}

  add(mail: DevMail): void {
    this.mails.unshift(mail);
    if (this.mails.length > this.capacity) this.mails.length = this.capacity;
  }

  /** Newest first. */
  list(): readonly DevMail[] {
    return this.mails;
  }

  get(id: string): DevMail | undefined {
    return this.mails.find((mail) => mail.id === id);
  }

  clear(): void {
    this.mails = [];
  }
}

/** This process's development mailbox (empty where mail goes over SMTP). */
export const devMailbox = new DevMailbox();

/** A Mailer that keeps what it sends in `mailbox` instead of sending it. */
export function devMailer(mailbox: DevMailbox, from: string, log: FastifyBaseLogger): Mailer {
  return {
    async send(mail) {
      const { text, html } = withUnsubscribeFooter(mail);
      const id = randomUUID();
      mailbox.add({
        id,
        sentAt: new Date().toISOString(),
        from,
        to: mail.to,
        subject: mail.subject,
        messageId: mail.messageId,
        headers: {
          From: from,
          To: mail.to,
          Subject: mail.subject,
          'Message-ID': mail.messageId,
          ...unsubscribeHeaders(mail.unsubscribeUrl),
        },
        text,
        html,
        unsubscribeUrl: mail.unsubscribeUrl,
      });
      log.info(
        { to: mail.to, subject: mail.subject, devMail: `/dev-mail/${id}` },
        'development mailbox: mail kept',
      );
    },
    async close() {},
  };
}

/**
 * How notification emails leave: over SMTP to SMTP_URL (nodemailer, a small pool of connections; a failure throws,
 * for the worker to retry), or where it is not set, to the development mailbox; in production without SMTP_URL none
 * are sent (null), and the log says so at start.
 */
export async function createMailer(
  config: Config,
  log: FastifyBaseLogger,
  options: { timeoutMs?: number } = {},
): Promise<Mailer | null> {
  const { smtpUrl, mailFrom } = config.notifications;
  if (!smtpUrl) {
    if (config.nodeEnv === 'production') {
      log.warn('SMTP_URL is not set: no notification emails will be sent');
      return null;
    }
    return devMailer(devMailbox, mailFrom, log);
  }
  const timeout = options.timeoutMs ?? SMTP_TIMEOUT_MS;
  const transport = createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 3,
    maxMessages: 100,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    dnsTimeout: timeout,
  });
  return {
    async send(mail) {
      const { text, html } = withUnsubscribeFooter(mail);
      await transport.sendMail({
        from: mailFrom,
        to: mail.to,
        subject: mail.subject,
        text,
        html,
        messageId: mail.messageId,
        headers: unsubscribeHeaders(mail.unsubscribeUrl),
      });
    },
    async close() {
      transport.close();
    },
  };
}
