import type { ZodType } from 'zod';

/**
 * Which session cookie a route needs: the customer's, the kitchen's, either of them, the operator's, or any of the
 * three (`signed-in`).
 */
export type Cookie = 'customer' | 'kitchen' | 'any' | 'operator' | 'signed-in';

/**
 * What a route says of itself beyond its zod schemas, declared where it is registered (`config: { doc }`): who may
 * call it and what it answers when its schemas do not say. The OpenAPI document (openapi.ts) is generated from the
 * routes as they register; a route without it fails tests/api/openapi.test.ts, and the authorisation matrix
 * (tests/api/authorization-matrix.test.ts) checks that its cells agree with `cookie`.
 */
export interface RouteDoc {
  summary: string;
  cookie?: Cookie;
  /** Needs `Authorization: Bearer $METRICS_TOKEN`. */
  token?: boolean;
  /** A live list: the same URL answers a server-sent event stream to `accept: text/event-stream`. */
  stream?: boolean;
  /** Answers the route's own schema does not declare (live lists, pages, empty answers), by status. */
  responses?: Record<number, ZodType | { description: string; type: string }>;
  /** The route's own error codes beyond the common ones (400 on bad input, 401, 403, 429, 503). */
  errors?: Record<number, string>;
  tags?: string[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's own description (src/server/lib/route-doc.ts). */
    doc?: RouteDoc;
  }
}

export const html = (description: string) => ({ description, type: 'text/html' });
/** A kitchen's dishes and reviews: refused as missing when there is none, or to anyone but its cook and operators
 * while it is suspended. */
export const SUSPENDED_OR_MISSING =
  'No such kitchen; or it is suspended, and the caller is neither its cook nor an operator';
export const empty = { description: 'Done; no content', type: '' };
export const redirect = (description: string) => ({ description, type: '' });
