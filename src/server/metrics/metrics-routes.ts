import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { unauthorized } from '../lib/errors.js';
import { createMetrics } from './metrics.js';
import { msg } from '../../shared/i18n/translator.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when the Authorization header carries `token` (compared in constant time). */
function hasToken(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

const NEEDS_TOKEN = msg('Metrics need the bearer token METRICS_TOKEN');

/**
 * `/metrics`, never public: with `METRICS_PORT` on a listener of its own (next to the app's, listening once the
 * app is ready and stopped with it; the token is required there too when set), else with `METRICS_TOKEN` on the app's port.
 * With neither, metrics are collected but not served.
 */
export function registerMetrics(app: FastifyInstance): void {
  const registry = createMetrics(app);
  const { token, port } = app.config.metrics;
  if (port !== undefined) {
    const server = http.createServer((req, res) => void serveOnOwnPort(registry, token, req, res));
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, app.config.host, () => resolve());
      });
      app.log.info({ port: (server.address() as { port: number }).port }, 'metrics served on their own port');
    });
    app.addHook('onClose', async () => {
      if (!server.listening) return;
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    });
    app.decorate('metricsServer', server);
    return;
  }
  if (!token) return;
  app.get(
    '/metrics',
    {
      config: {
        doc: {
          summary:
            'Prometheus metrics (bearer METRICS_TOKEN; with METRICS_PORT, served on that port instead)',
          tags: ['operations'],
          token: true,
          responses: { 200: { description: 'Prometheus text format', type: 'text/plain' } },
        },
      },
    },
    async (request, reply) => {
      if (!hasToken(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer');
        throw unauthorized(NEEDS_TOKEN);
      }
      return reply
        .type(registry.contentType)
        .header('cache-control', 'no-store')
        .send(await registry.metrics());
    },
  );
}

async function serveOnOwnPort(
  registry: Registry,
  token: string | undefined,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const json = (status: number, code: string, message: string, headers: http.OutgoingHttpHeaders = {}) =>
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify({ code, message }));
  if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics')
    return void json(404, 'NOT_FOUND', 'Only GET /metrics is served here');
  if (token && !hasToken(req.headers.authorization, token))
    return void json(401, 'UNAUTHENTICATED', NEEDS_TOKEN, { 'www-authenticate': 'Bearer' });
  try {
    const body = await registry.metrics();
    res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(body);
  } catch {
    json(500, 'INTERNAL', 'Something went wrong on our side');
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The listener of METRICS_PORT, when set (listening once the app is ready). */
    metricsServer?: http.Server;
  }
}
