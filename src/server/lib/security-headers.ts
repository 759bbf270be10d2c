import type { FastifyInstance } from 'fastify';

/** Headers every answer carries; the CSP allows no inline script. */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    // Mantine sets style attributes at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: http: data:",
    "connect-src 'self'",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin-allow-popups');
    if (options.https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}
