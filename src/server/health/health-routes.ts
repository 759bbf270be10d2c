import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      config: {
        doc: {
          summary: 'Liveness: the process answers',
          tags: ['operations'],
          responses: { 200: z.object({ ok: z.literal(true) }) },
        },
      },
    },
    async () => ({ ok: true }),
  );

  app.get(
    '/readyz',
    {
      config: {
        doc: {
          summary: 'Readiness: the database answers (503 while it does not)',
          tags: ['operations'],
          responses: { 200: z.object({ ok: z.literal(true), database: z.enum(['pglite', 'postgres']) }) },
        },
      },
    },
    async (_request, reply) => {
      try {
        await Promise.race([
          app.database.ping(),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('database ping timed out')), 1500).unref(),
          ),
        ]);
        return { ok: true, database: app.database.kind };
      } catch {
        return reply.status(503).send({ code: 'UNAVAILABLE', message: 'Database unreachable' });
      }
    },
  );
};
