import type { FastifyRequest } from 'fastify';
import { OrderParams } from '../../shared/orders.js';
import type { OrderMessageAuthor } from '../../shared/order-messages.js';
import { currentUser, hashToken, isOperatorEmail, type Role } from '../identity/sessions.js';
import type { User } from '../identity/users.js';
import { notFound, unauthorized } from '../lib/errors.js';
import { findOrderParties, type OrderParties } from './order-message-queries.js';
import type { DbOrTx } from '../db/database.js';
import { msg } from '../../shared/i18n/translator.js';

export const SIGN_IN_TO_READ = msg('Please sign in to see the messages of this order');
export const SIGN_IN_TO_WRITE = msg('Please sign in as the customer or the kitchen of this order');
/** Said to everyone who is neither party (nor, to read, an operator): whether the order exists stays unsaid. */
export const noSuchConversation = () => notFound('You have no order with this id');

/** Who is reading or writing an order's conversation, and through which session. */
export interface Party {
  role: OrderMessageAuthor | 'operator';
  user: User;
  /** The hashed token of the session that lets them: its sign-out ends their stream. */
  sessionHash: string;
}

/** The users a request is signed in as, by role: to read, an operator too; to write, only the two parties' roles. */
export type SignedIn = { role: Role; user: User | undefined }[];

/**
 * Who the request is signed in as (401 when it is nobody of the roles that may `purpose`), only as `side` when it
 * says (one browser may hold a customer's and a kitchen's session): asked before a write's transaction, as
 * sessions are read outside it.
 */
export async function signedInAs(
  request: FastifyRequest,
  purpose: 'read' | 'write',
  side?: OrderMessageAuthor,
): Promise<SignedIn> {
  const roles: Role[] = side
    ? [side]
    : purpose === 'read'
      ? ['customer', 'kitchen', 'operator']
      : ['customer', 'kitchen'];
  const users = await Promise.all(
    roles.map(async (role) => ({ role, user: await currentUser(request, role) })),
  );
  if (users.every(({ user }) => !user))
    throw unauthorized(purpose === 'read' ? SIGN_IN_TO_READ : SIGN_IN_TO_WRITE);
  return users;
}

/**
 * The party to order `orderId` among those the request is signed in as: its customer (a customer session), its
 * kitchen's owner (a kitchen session; not on an order its kitchen does not see, never paid), or else an operator
 * (when `signedIn` holds one: to read). Anyone else is answered 404, as if there were no such order. The order is
 * read with `db` (a transaction's, to write: then it stays as read until the transaction ends).
 */
export async function partyTo(
  request: FastifyRequest,
  db: DbOrTx,
  orderId: string,
  signedIn: SignedIn,
  lock = false,
): Promise<{ party: Party; order: OrderParties }> {
  const order = await findOrderParties(db, orderId, lock);
  if (!order) throw noSuchConversation();
  const found = signedIn.find(({ role, user }) => {
    if (!user) return false;
    if (role === 'customer') return order.customerId === user.id;
    if (role === 'kitchen') return order.kitchenUid === user.id && order.paid;
    return isOperatorEmail(request, user.email);
  });
  if (!found?.user) throw noSuchConversation();
  const token = request.cookies[request.server.config.sessionCookies[found.role]] ?? '';
  return {
    party: { role: found.role as Party['role'], user: found.user, sessionHash: hashToken(token) },
    order,
  };
}

/** The order a conversation's route names (400 naming `id` when it is no uuid). */
export const orderIdOf = (request: FastifyRequest) => OrderParams.parse(request.params).id;
