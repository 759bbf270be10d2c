import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SessionState, type SessionUser } from '../../shared/auth.js';
import { currentOperator, currentUser } from '../identity/sessions.js';
import type { User } from '../identity/users.js';

export function toSessionUser(user: User | undefined): SessionUser | null {
  return user
    ? { uid: user.id, displayName: user.displayName, email: user.email, photoURL: user.photoUrl }
    : null;
}

export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/session',
    {
      config: { doc: { summary: 'Who is signed in, as kitchen and as customer', tags: ['session'] } },
      schema: { response: { 200: SessionState } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const [kitchen, customer, operator] = await Promise.all([
        currentUser(request, 'kitchen'),
        currentUser(request, 'customer'),
        currentOperator(request),
      ]);
      return {
        kitchen: toSessionUser(kitchen),
        customer: toSessionUser(customer),
        operator: toSessionUser(operator),
      };
    },
  );
};
