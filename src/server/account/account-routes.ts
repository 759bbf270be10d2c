import { empty } from '../lib/route-doc.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountParams, DataExport, dataExportFileName, LanguageInput } from '../../shared/account.js';
import { ROLES, clearSessionCookie, currentUser, hashToken, requireUser } from '../identity/sessions.js';
import { saveLocale } from '../identity/users.js';
import { limits } from '../identity/rate-limit.js';
import { deleteAccount } from './account-delete.js';
import { exportUserData } from './account-export.js';

/**
 * 'Your data': a signed-in customer or cook downloads everything held about them, or deletes their account. The
 * `:role` names the session that speaks for them (each role has its own cookie); either way it is the same person.
 */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/account/:role/export',
    {
      config: {
        doc: {
          summary:
            "Download my data: everything held about the signed-in user (the role's session), as a JSON file attachment",
          tags: ['your data'],
          cookie: 'any',
        },
        rateLimit: limits.dataExports,
      },
      schema: { params: AccountParams, response: { 200: DataExport } },
    },
    async (request, reply) => {
      const { role } = request.params;
      const user = await requireUser(request, role);
      const token = request.cookies[app.config.sessionCookies[role]];
      const now = new Date(app.clock.now());
      // One consistent snapshot of every table read.
      const data = await app.db.transaction(
        (tx) => exportUserData(tx, user, token ? hashToken(token) : undefined, now),
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${dataExportFileName(now)}"`)
        .send(data);
    },
  );

  app.put(
    '/api/account/:role/language',
    {
      config: {
        doc: {
          summary:
            "Language: the one the signed-in user (the role's session) chose, for their emails and push notifications",
          tags: ['your data'],
          cookie: 'any',
          responses: { 204: empty },
        },
      },
      schema: { params: AccountParams, body: LanguageInput },
    },
    async (request, reply) => {
      const user = await requireUser(request, request.params.role);
      await saveLocale(app.db, user.id, request.body.locale);
      return reply.header('cache-control', 'no-store').status(204).send();
    },
  );

  app.delete(
    '/api/account/:role',
    {
      config: {
        doc: {
          summary:
            "Delete my account (the role's session): sessions, chat, reviews, kitchen, menu and pictures go; orders stay, anonymised",
          tags: ['your data'],
          cookie: 'any',
          responses: { 204: empty },
          errors: { 409: 'An order placed or received is still in progress' },
        },
      },
      schema: { params: AccountParams },
    },
    async (request, reply) => {
      const user = await requireUser(request, request.params.role);
      // The other role's cookie may be someone else's session (two people, one browser): kept unless it was theirs.
      const signedInAs = await Promise.all(
        ROLES.map(async (role) => [role, await currentUser(request, role)] as const),
      );
      await deleteAccount(app, user.id);
      for (const [role, other] of signedInAs) if (other?.id === user.id) clearSessionCookie(reply, role);
      return reply.header('cache-control', 'no-store').status(204).send();
    },
  );
};
