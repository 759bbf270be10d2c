import type { FastifyInstance } from 'fastify';
import { forbidden } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence: a request that changes state is accepted only from our own origin. Browsers send `Origin` (and
 * `Sec-Fetch-Site`) on every such request, including a cross-site form POST; clients that send neither are not
 * browsers and carry no victim's cookies.
 */
export function registerOriginCheck(app: FastifyInstance, publicUrl: string): void {
  const ownOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    if (
      (origin !== undefined && origin !== ownOrigin) ||
      (site !== undefined && site !== 'same-origin' && site !== 'none')
    ) {
      throw forbidden('Cross-site requests are not accepted');
    }
  });
}
