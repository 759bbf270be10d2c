import { z } from 'zod';

export const Role = z.enum(['kitchen', 'customer']);
export type Role = z.infer<typeof Role>;

/** The signed-in user as screens see it (the spec's displayName, email, uid, plus the picture). */
export const SessionUser = z.object({
  uid: z.string().uuid(),
  displayName: z.string(),
  email: z.string(),
  photoURL: z.string().nullable(),
});
export type SessionUser = z.infer<typeof SessionUser>;

/** Kitchen and customer identities are separate sessions: either, both or neither may be signed in. */
export const SessionState = z.object({ kitchen: SessionUser.nullable(), customer: SessionUser.nullable() });
export type SessionState = z.infer<typeof SessionState>;

/** The message the sign-in popup sends to the page that opened it. */
export const AUTH_CHANNEL = 'homecooked-auth';
export interface AuthMessage {
  type: 'homecooked:signed-in' | 'homecooked:sign-in-failed';
  role: Role;
}
