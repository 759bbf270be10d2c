import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  NOTICE_AUDIENCE,
  NOTICE_KINDS,
  NOTICE_LABELS,
  type NoticeKind,
  LEGAL_NOTICE_LOCKED,
} from '../../../shared/notifications.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { escapeHtml } from '../../lib/html.js';
import { html } from '../../lib/route-doc.js';
import { readSettings, saveEmailSetting } from '../settings/settings-queries.js';
import { NEW_ORDERS_LOCKED } from '../settings/settings-routes.js';
import { readUnsubscribeToken, UNSUBSCRIBE_PATH } from './unsubscribe.js';
import { textDirection } from '../../../shared/i18n/locales.js';
import { msg, t, type Translator } from '../../../shared/i18n/translator.js';

const TokenQuery = z.object({
  token: z
    .string({ error: () => t('token is required') })
    .min(1, { error: () => t('token is required') })
    .max(200, { error: () => t('token is not valid') }),
});

/** What the one-click POST answers (JSON, unless the browser's form asked for a page). */
const Unsubscribed = z.object({
  kind: z.enum(NOTICE_KINDS),
  label: z.string(),
  email: z.literal(false),
});

const BAD_TOKEN = msg('This link is not valid: its token was not made by HomeCooked, or it was cut short');

const page = (tr: Translator, title: string, body: string) => `<!doctype html>
<html lang="${tr.locale}"${textDirection(tr.locale) === 'rtl' ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · HomeCooked</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>body{font-family:system-ui,sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem;color:#212529;line-height:1.5}
button{margin-top:1rem;padding:.7rem 1.2rem;font-size:1rem;background:#c2410c;color:#fff;border:0;border-radius:6px;min-height:44px;cursor:pointer}
.note{color:#495057;font-size:.95rem}a{color:#9a3412}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

const sendPage = (reply: FastifyReply, status: number, title: string, body: string) =>
  reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(page(trOf(reply.request), title, body));

/** The language of the page: the visitor's. */
const trOf = (request: FastifyRequest) => request.server.i18n.translator(request.locale);

const LABEL_MARK = '\u0000';
/** A message as HTML: its text escaped, the `{label}` in it (given `LABEL_MARK`) the label's HTML. */
const withLabel = (text: (label: string) => string, labelHtml: string) =>
  escapeHtml(text(LABEL_MARK)).replace(LABEL_MARK, labelHtml);

/** A form's body (the one-click POST sends `List-Unsubscribe=One-Click`): read, and nothing in it needed. */
const ignoredForm = (_request: FastifyRequest, _body: string, done: (error: null, body: object) => void) =>
  done(null, {});

/**
 * One-click unsubscribe (RFC 8058) from a notification email's link, without a session: the token says whose email
 * of which kind. POST turns it off (a mail program's one-click, or the page's button); GET only shows a page with
 * that button, so that a link scanner that follows links changes nothing. The cook's new-order email stays on while
 * their kitchen takes orders and no device of theirs gets push notifications.
 */
export const notificationMailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'multipart/form-data'],
    { parseAs: 'string', bodyLimit: 4096 },
    ignoredForm,
  );

  /** The token's user and kind, and their setting now (null: a bad token). */
  const settingOf = async (token: string) => {
    const owner = readUnsubscribeToken(app, token);
    if (!owner) return null;
    const audience = NOTICE_AUDIENCE[owner.kind];
    const { email } = await readSettings(app.db, owner.userId, audience, new Date(app.clock.now()));
    const setting = email.find((s) => s.kind === owner.kind);
    return { ...owner, on: setting?.email ?? true, locked: setting?.locked ?? false };
  };

  const quotedLabel = (tr: Translator, kind: NoticeKind) =>
    `<strong>${escapeHtml(tr.t(NOTICE_LABELS[kind]))}</strong>`;
  const lockedText = (tr: Translator) =>
    `<p>${escapeHtml(tr.t('Your new-order emails stay on while your kitchen takes orders and you have no device with push notifications, so that no order goes unseen. Allow notifications on your phone or computer (in Notifications, once signed in), then you can turn these emails off.'))}</p>`;
  const badTokenPage = (reply: FastifyReply, tr: Translator) =>
    sendPage(
      reply,
      400,
      tr.t('This link is not valid'),
      `<p>${escapeHtml(tr.t('This link is not valid: its token was not made by HomeCooked, or it was cut short.'))}</p>`,
    );

  app.get(
    UNSUBSCRIBE_PATH,
    {
      config: {
        doc: {
          summary:
            "A notification email's unsubscribe link: a page with a button that turns that email off (GET changes nothing); no session needed, the token says whose",
          responses: { 200: html('The page') },
        },
      },
      schema: { querystring: TokenQuery },
    },
    async (request, reply) => {
      const tr = trOf(request);
      const setting = await settingOf(request.query.token);
      if (!setting) return badTokenPage(reply, tr);
      const label = quotedLabel(tr, setting.kind);
      if (setting.locked && setting.kind !== 'order-new')
        return sendPage(
          reply,
          200,
          tr.t('These emails stay on'),
          `<p>${escapeHtml(tr.t(LEGAL_NOTICE_LOCKED))}</p>`,
        );
      if (setting.locked) return sendPage(reply, 200, tr.t('New-order emails stay on'), lockedText(tr));
      if (!setting.on)
        return sendPage(
          reply,
          200,
          tr.t('These emails are off'),
          `<p>${withLabel(
            (mark) =>
              tr.t(
                'You get no emails for {label}. You can turn them back on in Notifications, once signed in.',
                {
                  label: mark,
                },
              ),
            label,
          )}</p>`,
        );
      const action = `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(request.query.token)}`;
      return sendPage(
        reply,
        200,
        tr.t('Turn off these emails?'),
        `<p>${withLabel(
          (mark) =>
            tr.t(
              'You will no longer get an email for {label}. Your other emails, and notifications on your devices, stay as they are.',
              { label: mark },
            ),
          label,
        )}</p>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">${escapeHtml(tr.t('Turn off these emails'))}</button></form>
<p class="note">${escapeHtml(tr.t('You can turn them back on in Notifications, once signed in.'))}</p>`,
      );
    },
  );

  app.post(
    UNSUBSCRIBE_PATH,
    {
      config: {
        doc: {
          summary:
            "One-click unsubscribe (RFC 8058): turns off the email of the token's kind for the token's person; no session needed. Answers a page to a browser's form, JSON otherwise",
          errors: {
            409: "The cook's new-order email cannot be turned off while their kitchen takes orders and they have no push device",
          },
        },
      },
      schema: { querystring: TokenQuery, response: { 200: Unsubscribed } },
    },
    async (request, reply) => {
      const wantsPage = (request.headers.accept ?? '').includes('text/html');
      const tr = trOf(request);
      const setting = await settingOf(request.query.token);
      if (!setting) {
        if (wantsPage) return badTokenPage(reply, tr);
        throw badRequest(BAD_TOKEN, 'token');
      }
      if (setting.locked && setting.kind !== 'order-new') {
        if (wantsPage)
          return sendPage(
            reply,
            409,
            tr.t('These emails stay on'),
            `<p>${escapeHtml(tr.t(LEGAL_NOTICE_LOCKED))}</p>`,
          );
        throw conflict(LEGAL_NOTICE_LOCKED, 'token');
      }
      if (setting.locked) {
        if (wantsPage) return sendPage(reply, 409, tr.t('New-order emails stay on'), lockedText(tr));
        throw conflict(NEW_ORDERS_LOCKED, 'token');
      }
      await saveEmailSetting(app.db, setting.userId, setting.kind, false);
      if (wantsPage)
        return sendPage(
          reply,
          200,
          tr.t('Emails turned off'),
          `<p>${withLabel(
            (mark) =>
              tr.t(
                'You will no longer get an email for {label}. You can turn them back on in Notifications, once signed in.',
                { label: mark },
              ),
            quotedLabel(tr, setting.kind),
          )}</p>`,
        );
      reply.header('cache-control', 'no-store');
      return { kind: setting.kind, label: tr.t(NOTICE_LABELS[setting.kind]), email: false as const };
    },
  );
};
