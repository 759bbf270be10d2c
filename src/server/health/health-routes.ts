import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', async () => ({ ok: true }));

  app.get('/readyz', async (_request, reply) => {
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
  });
};
