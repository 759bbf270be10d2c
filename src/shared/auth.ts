import { z } from 'zod';
import { t } from './i18n/translator.js';

export const Role = z.enum(['kitchen', 'customer', 'operator']);
export type Role = z.infer<typeof Role>;

/** The signed-in user as screens see it (the spec's displayName, email, uid, plus the picture). */
export const SessionUser = z.object({
  uid: z.string().uuid(),
  displayName: z.string(),
  email: z.string(),
  photoURL: z.string().nullable(),
});
export type SessionUser = z.infer<typeof SessionUser>;

/**
 * Kitchen, customer and operator identities are separate sessions: any, all or none may be signed in. `operator`
 * is set only while the user's email is listed in OPERATOR_EMAILS.
 */
export const SessionState = z.object({
  kitchen: SessionUser.nullable(),
  customer: SessionUser.nullable(),
  operator: SessionUser.nullable(),
});
export type SessionState = z.infer<typeof SessionState>;

/**
 * The random id a tab gives each sign-in it starts. It travels through the sign-in (in the signed flow cookie) and
 * comes back in the popup's message, so that only the tab that asked acts on the answer, and only once.
 */
export const SignInAttempt = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,64}$/, { error: () => t('must be 16 to 64 letters, digits, - or _') });

/** The message the sign-in popup sends to the page that opened it (and, by BroadcastChannel, to every tab). */
export const AUTH_CHANNEL = 'homecooked-auth';
export interface AuthMessage {
  type: 'homecooked:signed-in' | 'homecooked:sign-in-failed';
  role: Role;
  /** The attempt this answers; null when the sign-in's flow was lost (expired, replayed). */
  attempt: string | null;
}
