import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DbOrTx } from '../db/database.js';
import { sessions, users } from '../db/schema.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import type { User } from './users.js';
import { msg } from '../../shared/i18n/translator.js';

export type Role = 'kitchen' | 'customer' | 'operator';
export const ROLES: readonly Role[] = ['kitchen', 'customer', 'operator'];

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Creates a session and returns the opaque token that goes in the cookie (only its hash is stored). */
export async function createSession(
  db: DbOrTx,
  userId: string,
  role: Role,
  ttlMs = SESSION_TTL_MS,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insert(sessions)
    .values({ tokenHash: hashToken(token), userId, role, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/**
 * Signed-in users by session, for a few seconds: every authenticated request needs one, and it is the most
 * expensive query of most requests. Signing out forgets the entry at once on every instance (the
 * `session-ended` notice); the short lifetime bounds anything else, such as a session's expiry.
 */
const SESSION_CACHE_MS = 15_000;
const sessionCache = new LRUCache<string, User>({ max: 10_000, ttl: SESSION_CACHE_MS });

/** Forgets a signed-out session (every role) in this process. */
export function forgetSession(tokenHash: string): void {
  for (const role of ROLES) sessionCache.delete(`${role}:${tokenHash}`);
}

export async function findSessionUser(db: DbOrTx, token: string, role: Role): Promise<User | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const key = `${role}:${hashToken(token)}`;
  const cached = sessionCache.get(key);
  if (cached) return cached;
  const [row] = await db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, hashToken(token)),
        eq(sessions.role, role),
        gt(sessions.expiresAt, new Date()),
      ),
    )
    .limit(1);
  if (!row) {
    sessionCache.delete(key);
    return undefined;
  }
  // Never past the session's own end.
  const ttl = Math.min(SESSION_CACHE_MS, row.expiresAt.getTime() - Date.now());
  if (ttl > 0) sessionCache.set(key, row.user, { ttl });
  return row.user;
}

export async function deleteSession(db: DbOrTx, token: string): Promise<void> {
  forgetSession(hashToken(token));
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** The hashed session tokens a request carries (every role), to tag the live streams it opens. */
export function requestSessionHashes(request: FastifyRequest): string[] {
  const { sessionCookies } = request.server.config;
  return ROLES.map((role) => request.cookies[sessionCookies[role]])
    .filter((t): t is string => typeof t === 'string' && t.length > 0)
    .map(hashToken);
}

export function sessionCookieOptions(secure: boolean, maxAgeMs = SESSION_TTL_MS) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: Math.floor(maxAgeMs / 1000) };
}

const resolved = new WeakMap<FastifyRequest, Map<Role, Promise<User | undefined>>>();

/** The user signed in under `role` on this request, or undefined. Resolved once per request. */
export function currentUser(request: FastifyRequest, role: Role): Promise<User | undefined> {
  let byRole = resolved.get(request);
  if (!byRole) {
    byRole = new Map();
    resolved.set(request, byRole);
  }
  let pending = byRole.get(role);
  if (!pending) {
    const token = request.cookies[request.server.config.sessionCookies[role]];
    pending = token ? findSessionUser(request.server.db, token, role) : Promise.resolve(undefined);
    byRole.set(role, pending);
  }
  return pending;
}

/** The user signed in under either role (the customer's identity first), or a 401 saying `message`. */
export async function requireAnyUser(
  request: FastifyRequest,
  message: string = msg('Please sign in'),
): Promise<User> {
  const user = (await currentUser(request, 'customer')) ?? (await currentUser(request, 'kitchen'));
  if (!user) throw unauthorized(message);
  return user;
}

/** The user signed in under `role`, or a 401. */
export async function requireUser(request: FastifyRequest, role: Role): Promise<User> {
  const user = await currentUser(request, role);
  if (!user)
    throw unauthorized(
      role === 'kitchen' ? msg('Please sign in as a kitchen owner') : msg('Please sign in to continue'),
    );
  return user;
}

/** Whether `email` is listed in OPERATOR_EMAILS now (case aside). */
export function isOperatorEmail(request: FastifyRequest, email: string): boolean {
  return request.server.config.operatorEmails.has(email.toLowerCase());
}

/**
 * The user of this request's operator session while their email is still listed in OPERATOR_EMAILS, or
 * undefined. The list is checked on every request, so an operator taken off it loses their power at once (their
 * session stays, powerless, until it expires or they sign out).
 */
export async function currentOperator(request: FastifyRequest): Promise<User | undefined> {
  const user = await currentUser(request, 'operator');
  return user && isOperatorEmail(request, user.email) ? user : undefined;
}

/** The signed-in operator, or a 401 (no operator session) or 403 (an email no longer listed). */
export async function requireOperator(request: FastifyRequest): Promise<User> {
  const user = await currentUser(request, 'operator');
  if (!user) throw unauthorized('Please sign in as an operator');
  if (!isOperatorEmail(request, user.email)) throw forbidden('You are no longer an operator');
  return user;
}

export function setSessionCookie(reply: FastifyReply, role: Role, token: string): void {
  const { https, sessionCookies } = reply.server.config;
  reply.setCookie(sessionCookies[role], token, sessionCookieOptions(https));
}

export function clearSessionCookie(reply: FastifyReply, role: Role): void {
  const { https, sessionCookies } = reply.server.config;
  reply.clearCookie(sessionCookies[role], { path: '/', secure: https, httpOnly: true, sameSite: 'lax' });
}
