import fastifySwagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorBody } from '../../shared/errors.js';
import { appRoutePatterns } from '../../shared/paths.js';
import type { Cookie, RouteDoc } from '../lib/route-doc.js';

type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;
type JsonResponses = Record<string, unknown>;

export interface RegisteredRoute {
  method: string;
  url: string;
  /** What the route declared of itself where it was registered (`config: { doc }`). */
  doc: RouteDoc | undefined;
  /** Left out of the document on purpose: the reference page's own files, static files, the development provider. */
  hidden: boolean;
}

const routesByApp = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered on `app` (HEAD twins of GET routes aside), as the document should list them. */
export const registeredRoutes = (app: FastifyInstance): RegisteredRoute[] => routesByApp.get(app) ?? [];

const DOCS_PREFIX = '/api/docs';
const DEV_IDP_PREFIX = '/dev-idp';
/** The local payment provider's pages (`PAYMENTS=local`, never in production). */
const DEV_PAY_PREFIX = '/dev-pay/';

const errorSchema = (() => {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(ApiErrorBody) as Record<string, unknown>;
  return schema;
})();
const errorResponse = (description: string) => ({
  description: `${description}: { code, message, field }`,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
});

const securityOf: Record<Cookie, Record<string, string[]>[]> = {
  customer: [{ customerSession: [] }],
  kitchen: [{ kitchenSession: [] }],
  any: [{ customerSession: [] }, { kitchenSession: [] }],
  operator: [{ operatorSession: [] }],
  'signed-in': [{ customerSession: [] }, { kitchenSession: [] }, { operatorSession: [] }],
};

const pageDoc: RouteDoc = {
  summary: 'A page of the web app (its index.html; the browser draws the page)',
  tags: ['web app'],
  responses: { 200: { description: 'The web app', type: 'text/html' } },
};

/** What a route declared of itself; the web app's pages share one description. */
function docOf(route: Pick<RouteOptions, 'config'>, method: string, url: string): RouteDoc | undefined {
  return (
    (route.config as { doc?: RouteDoc } | undefined)?.doc ??
    (method === 'GET' && (appRoutePatterns as readonly string[]).includes(url) ? pageDoc : undefined)
  );
}

/** The zod answers go through the zod transform; a live list's 200 is JSON or an event stream. */
function zodResponses(doc: RouteDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(doc.responses ?? {})) {
    if (!(answer instanceof z.ZodType)) continue;
    out[status] = doc.stream
      ? {
          description:
            'JSON; or, to `accept: text/event-stream`, a snapshot event now and one after each change',
          content: { 'application/json': { schema: answer }, 'text/event-stream': { schema: z.string() } },
        }
      : answer;
  }
  return out;
}

/** Answers that are not JSON, and the errors every route of its kind may give. */
function otherResponses(doc: RouteDoc, route: RouteOptions, method: string, url: string): JsonResponses {
  const out: JsonResponses = {};
  for (const [status, answer] of Object.entries(doc.responses ?? {})) {
    if (answer instanceof z.ZodType) continue;
    out[status] = answer.type
      ? { description: answer.description, content: { [answer.type]: { schema: { type: 'string' } } } }
      : { description: answer.description, type: 'null' };
  }
  const schema = route.schema ?? {};
  if (schema.body || schema.querystring || schema.params)
    out[400] = errorResponse('Bad input, naming the field');
  if (doc.cookie) out[401] = errorResponse('Not signed in with the session this route needs');
  if (doc.token) out[401] = errorResponse('Without the bearer token');
  const api = url.startsWith('/api/') || url.startsWith('/auth/');
  if (api && method !== 'GET') out[403] = errorResponse('Not sent from our own origin');
  for (const [status, description] of Object.entries(doc.errors ?? {}))
    out[status] = errorResponse(description);
  if ((route.config as { rateLimit?: unknown } | undefined)?.rateLimit)
    out[429] = errorResponse('Too many requests (with Retry-After)');
  if (doc.stream)
    out[429] = errorResponse(
      'As a stream: this session or address holds too many open streams (with Retry-After)',
    );
  if (api || url === '/readyz') out[503] = errorResponse('The database is briefly unreachable');
  out[500] = errorResponse('Something went wrong on our side');
  return out;
}

function documentTransform(): Transform {
  const zodTransform = createJsonSchemaTransform({}) as Transform;
  return (input) => {
    const { route, url } = input;
    const method = [route.method].flat()[0] ?? 'GET';
    const doc = docOf(route, method, url);
    if (!doc) return zodTransform(input);
    const schema = input.schema ?? {};
    const tag = url.split('/')[2] ?? 'operations';
    const merged = {
      ...schema,
      summary: doc.summary,
      tags: doc.tags ?? [tag],
      ...(doc.cookie ? { security: securityOf[doc.cookie] } : {}),
      ...(doc.token ? { security: [{ metricsToken: [] }] } : {}),
      response: { ...(schema.response as object | undefined), ...zodResponses(doc) },
    };
    const result = zodTransform({ ...input, schema: merged });
    const response = (result.schema as { response?: JsonResponses }).response ?? {};
    return {
      ...result,
      schema: { ...result.schema, response: { ...response, ...otherResponses(doc, route, method, url) } },
    };
  };
}

/**
 * The OpenAPI 3.1 document, generated from the routes as they register (with their zod schemas, and what
 * `routeDocs` adds), at /api/openapi.json; and a reference page at /api/docs, served from our own files.
 * Registered before every route, so that it sees them all.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const routes: RegisteredRoute[] = [];
  routesByApp.set(app, routes);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(DEV_IDP_PREFIX) || route.url.startsWith(DEV_PAY_PREFIX))
      route.schema = { ...route.schema, hide: true };
    const schema = route.schema as { hide?: boolean } | undefined;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        doc: docOf(route, method, route.url),
        hidden: Boolean(schema?.hide) || route.url.startsWith(DOCS_PREFIX),
      });
    }
  });
  const { sessionCookies } = app.config;
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'HomeCooked API',
        version: '1.0.0',
        description:
          "The marketplace's JSON API, sign-in pages and operations endpoints. Errors are `{ code, message, field }`. " +
          'A write must come from our own origin (`Origin` header). Live lists answer JSON to a plain GET and a ' +
          'server-sent event stream to `accept: text/event-stream`.',
      },
      servers: [{ url: app.config.publicUrl }],
      components: {
        schemas: { ApiError: errorSchema },
        securitySchemes: {
          customerSession: { type: 'apiKey', in: 'cookie', name: sessionCookies.customer },
          kitchenSession: { type: 'apiKey', in: 'cookie', name: sessionCookies.kitchen },
          operatorSession: { type: 'apiKey', in: 'cookie', name: sessionCookies.operator },
          metricsToken: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: documentTransform(),
  });
  app.get(
    '/api/openapi.json',
    {
      config: {
        doc: {
          summary: 'This document',
          tags: ['operations'],
          responses: { 200: z.looseObject({ openapi: z.literal('3.1.0') }) },
        },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    // No call to the public validator (a third party): the test suite validates the document instead.
    uiConfig: { validatorUrl: null, deepLinking: true },
    theme: { title: 'HomeCooked API reference' },
    // The page runs only our own files (swagger-ui's scripts and initializer are files, no inline script), and
    // may show only our own images.
    staticCSP:
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
      "connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; " +
      "frame-ancestors 'none'",
  });
}
