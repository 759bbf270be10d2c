import type { FastifyInstance } from 'fastify';
import { NOTICE_KINDS, type NoticeKind } from '../../../shared/notifications.js';

/** Where an email's one-click unsubscribe link points (RFC 8058): POST turns that email off, GET shows a page. */
export const UNSUBSCRIBE_PATH = '/api/notifications/unsubscribe';

type Signer = Pick<FastifyInstance, 'signCookie' | 'unsignCookie'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What is signed: a purpose of its own, so that no other value the server signs can pass for it. */
const signedText = (userId: string, kind: NoticeKind) => `notification-unsubscribe:${userId}:${kind}`;

/**
 * A token that turns off `userId`'s emails of `kind`: `<userId>.<kind>.<HMAC-SHA256 of both, base64url>`, signed
 * with the server's secret (SESSION_SECRET, through the cookie signer), so that only the server makes one. It does
 * not expire: an email's link works as long as the email is kept.
 */
export function unsubscribeToken(app: Signer, userId: string, kind: NoticeKind): string {
  const signed = app.signCookie(signedText(userId, kind));
  const signature = signed
    .slice(signed.lastIndexOf('.') + 1)
    .replaceAll('+', '-')
    .replaceAll('/', '_');
  return `${userId}.${kind}.${signature}`;
}

/** The user and kind a token was made for, or null when it was not made by this server (or is not one at all). */
export function readUnsubscribeToken(
  app: Signer,
  token: string,
): { userId: string; kind: NoticeKind } | null {
  const [userId = '', kind = '', signature = '', ...rest] = token.split('.');
  if (rest.length > 0 || !UUID.test(userId) || !(NOTICE_KINDS as readonly string[]).includes(kind))
    return null;
  if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return null;
  const base64 = signature.replaceAll('-', '+').replaceAll('_', '/');
  // The signer compares in constant time, and with every secret it holds.
  const { valid } = app.unsignCookie(`${signedText(userId, kind as NoticeKind)}.${base64}`);
  return valid ? { userId, kind: kind as NoticeKind } : null;
}

/** The one-click unsubscribe link of `userId`'s emails of `kind`, for the List-Unsubscribe header and the footer. */
export function unsubscribeUrl(
  app: Signer & Pick<FastifyInstance, 'config'>,
  userId: string,
  kind: NoticeKind,
): string {
  return `${app.config.publicUrl}${UNSUBSCRIBE_PATH}?token=${unsubscribeToken(app, userId, kind)}`;
}
