import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../lib/html.js';
import { devMailbox, type DevMail } from './mailer.js';

export const DEV_MAIL_PATH = '/dev-mail';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} (development mailbox)</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#212529}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #dee2e6;vertical-align:top}
th{font-weight:600;color:#495057}.note{color:#495057;font-size:.9rem}a{color:#9a3412}
pre{white-space:pre-wrap;background:#f8f9fa;padding:1rem;border-radius:6px}
iframe{width:100%;height:36rem;border:1px solid #dee2e6;border-radius:6px;background:#fff}td.h{white-space:nowrap;color:#495057}</style></head>
<body>${body}</body></html>`;

const sendPage = (reply: FastifyReply, status: number, html: string) =>
  reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);

const wantsJson = (request: FastifyRequest) => (request.headers.accept ?? '').includes('application/json');

/** The mails, newest first; only those to `to` when given. */
const mailsTo = (to: string | undefined): readonly DevMail[] =>
  to ? devMailbox.list().filter((mail) => mail.to.toLowerCase() === to.toLowerCase()) : devMailbox.list();

function listPage(mails: readonly DevMail[]): string {
  const rows = mails
    .map(
      (mail) =>
        `<tr><td><time datetime="${escapeHtml(mail.sentAt)}">${escapeHtml(mail.sentAt.replace('T', ' ').slice(0, 19))}</time></td>` +
        `<td>${escapeHtml(mail.to)}</td><td><a href="${DEV_MAIL_PATH}/${escapeHtml(mail.id)}">${escapeHtml(mail.subject)}</a></td></tr>`,
    )
    .join('\n');
  return page(
    'Mailbox',
    `<h1>Development mailbox</h1>
<p class="note">The notification emails this server sent, newest first (the last ${devMailbox.capacity}, kept in memory until it stops). SMTP_URL is not set: nothing left this machine. As JSON: <a href="${DEV_MAIL_PATH}.json">${DEV_MAIL_PATH}.json</a> (<code>?to=</code> an address).</p>
${mails.length === 0 ? '<p>No mail yet.</p>' : `<table><thead><tr><th scope="col">Sent (UTC)</th><th scope="col">To</th><th scope="col">Subject</th></tr></thead><tbody>\n${rows}\n</tbody></table>`}`,
  );
}

function mailPage(mail: DevMail): string {
  const headers = Object.entries({ Date: mail.sentAt, ...mail.headers })
    .map(([name, value]) => `<tr><td class="h">${escapeHtml(name)}</td><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  return page(
    mail.subject,
    `<p><a href="${DEV_MAIL_PATH}">← Mailbox</a></p>
<h1>${escapeHtml(mail.subject)}</h1>
<table aria-label="Headers">${headers}</table>
<h2>HTML</h2>
<iframe title="The email's HTML" sandbox src="${DEV_MAIL_PATH}/${escapeHtml(mail.id)}/html"></iframe>
<h2>Text</h2>
<pre>${escapeHtml(mail.text)}</pre>`,
  );
}

/** The mail's own HTML shown alone: no script, nothing fetched but pictures, framed only by the mailbox's page. */
const RAW_CSP =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; frame-ancestors 'self'";

/**
 * The development mailbox at /dev-mail: what this server "sent" without SMTP_URL, as a page (each mail's headers,
 * text, and HTML in a sandboxed frame) and as JSON (`/dev-mail.json`, or `accept: application/json`) for end-to-end
 * tests. Served only where the development sign-in is (a loopback PUBLIC_URL and HOST, or DEV_SIGN_IN set on
 * purpose), as /dev-idp is, and never in production.
 */
const hidden = { hide: true };

export async function registerDevMail(app: FastifyInstance): Promise<void> {
  if (!app.config.devSignIn || app.config.nodeEnv === 'production') return;
  await app.register(async (scope) => {
    scope.get<{ Querystring: { to?: string } }>(
      DEV_MAIL_PATH,
      {
        // Not part of the API's description, as /dev-idp and /dev-pay are not.
        schema: hidden,
        config: {
          doc: {
            summary: 'Development mailbox: the emails sent (a page; JSON to accept: application/json)',
            tags: ['dev'],
          },
        },
      },
      async (request, reply) => {
        const mails = mailsTo(request.query.to);
        if (wantsJson(request)) return reply.header('cache-control', 'no-store').send(mails);
        return sendPage(reply, 200, listPage(mails));
      },
    );

    scope.get<{ Querystring: { to?: string } }>(
      `${DEV_MAIL_PATH}.json`,
      {
        schema: hidden,
        config: {
          doc: {
            summary: 'Development mailbox: the emails sent, newest first (?to= one address)',
            tags: ['dev'],
          },
        },
      },
      async (request, reply) => reply.header('cache-control', 'no-store').send(mailsTo(request.query.to)),
    );

    scope.get<{ Params: { id: string } }>(
      `${DEV_MAIL_PATH}/:id`,
      {
        schema: hidden,
        config: {
          doc: {
            summary: 'Development mailbox: one email (a page; JSON to accept: application/json)',
            tags: ['dev'],
          },
        },
      },
      async (request, reply) => {
        const mail = devMailbox.get(request.params.id);
        if (!mail) {
          if (wantsJson(request))
            return reply.status(404).send({ code: 'NOT_FOUND', message: 'No such mail' });
          return sendPage(
            reply,
            404,
            page('Not found', `<h1>No such mail</h1><p><a href="${DEV_MAIL_PATH}">Mailbox</a></p>`),
          );
        }
        if (wantsJson(request)) return reply.header('cache-control', 'no-store').send(mail);
        return sendPage(reply, 200, mailPage(mail));
      },
    );

    scope.get<{ Params: { id: string } }>(
      `${DEV_MAIL_PATH}/:id/html`,
      {
        schema: hidden,
        config: { doc: { summary: "Development mailbox: one email's HTML, sandboxed", tags: ['dev'] } },
        // After the headers every answer gets: this one runs nothing, and only the mailbox's page may frame it.
        onSend: async (_request, reply, payload) => {
          reply.header('content-security-policy', RAW_CSP);
          reply.header('x-frame-options', 'SAMEORIGIN');
          return payload;
        },
      },
      async (request, reply) => {
        const mail = devMailbox.get(request.params.id);
        if (!mail) return sendPage(reply, 404, page('Not found', '<h1>No such mail</h1>'));
        return sendPage(reply, 200, mail.html);
      },
    );
  });
}
