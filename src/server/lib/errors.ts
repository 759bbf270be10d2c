import { DrizzleQueryError } from 'drizzle-orm';
import type { FastifyError, FastifyInstance } from 'fastify';
import pg from 'pg';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody } from '../../shared/errors.js';
import { msg } from '../../shared/i18n/translator.js';
import type { Values } from '../../shared/i18n/messages.js';
import { foreignKeyViolation } from './unique-violation.js';

/** An error a handler throws to answer with a status and a stable code; the error handler renders it. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** Extra response headers, such as Retry-After. */
    readonly headers?: Record<string, string>,
    /** The values of the message's arguments: it is an English ICU message, translated as it is sent. */
    readonly values?: Values,
  ) {
    super(message);
  }
}

// Each message is English (ICU MessageFormat, with `values`), marked for translation where it is written (the
// first argument of these is extracted like msg()'s) and sent in the request's language.
export const unauthorized = (message: string = msg('Please sign in'), values?: Values) =>
  new HttpError(401, 'UNAUTHENTICATED', message, undefined, undefined, values);
export const forbidden = (message: string = msg('You may not do that'), values?: Values) =>
  new HttpError(403, 'FORBIDDEN', message, undefined, undefined, values);
export const notFound = (message: string = msg('Not found'), values?: Values) =>
  new HttpError(404, 'NOT_FOUND', message, undefined, undefined, values);
export const conflict = (message: string, field?: string, values?: Values) =>
  new HttpError(409, 'CONFLICT', message, field, undefined, values);
export const badRequest = (message: string, field?: string, values?: Values) =>
  new HttpError(400, 'VALIDATION', message, field, undefined, values);
export const tooManyRequests = (message: string, retryAfterSeconds: number, values?: Values) =>
  new HttpError(
    429,
    'RATE_LIMITED',
    message,
    undefined,
    { 'retry-after': String(retryAfterSeconds) },
    values,
  );

/** Database unreachable, shutting down or too slow to answer: 503 at once, retry in a second. */
export class UnavailableError extends HttpError {
  constructor(message: string = msg('The service is briefly unavailable, please retry')) {
    super(503, 'UNAVAILABLE', message, undefined, { 'retry-after': '1' });
  }
}

// SQLSTATEs by which the server says it is shutting down, cannot take a connection now, or gave up on a statement
// (57014: cancelled, e.g. by a statement timeout).
const SERVER_UNAVAILABLE_STATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '08000',
  '08001',
  '08003',
  '08006',
]);
// What a socket to the database server reports when the server cannot be reached or drops the connection.
const SOCKET_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
// pg's and PGlite's own words for a connection lost, not obtained in time, an answer not read in time
// (`query_timeout`), or closed (a transaction's rollback on a client whose connection has ended).
const DRIVER_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Query read timeout|PGlite is clos(ed|ing))/;

/** Marks an error met while checking a connection out of the database's pool (src/server/db/database.ts). */
const CHECKOUT_FAILED = Symbol('database connection checkout failed');

/**
 * Marks `error` as met while opening or checking out a connection to the database: whatever it is (refused, reset
 * while the server starts or stops, 'too many clients', a timeout), the database cannot serve the request now.
 */
export function markCheckoutFailure<E>(error: E): E {
  if (error instanceof Error) (error as Error & { [CHECKOUT_FAILED]?: true })[CHECKOUT_FAILED] = true;
  return error;
}

/**
 * True for an error of the database driver saying the database cannot be reached, and for nothing else: a
 * client's request stream reports ECONNRESET too when the client goes away, and a fetch to another service
 * carries ECONNREFUSED in its cause, and neither is a database outage.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps what the driver threw in a query; a transaction's pool checkout arrives bare.
  const wrapped = error instanceof DrizzleQueryError;
  const cause = wrapped ? error.cause : error;
  if (!(cause instanceof Error)) return false;
  if (CHECKOUT_FAILED in cause) return true;
  if (cause instanceof pg.DatabaseError) return SERVER_UNAVAILABLE_STATES.has(cause.code ?? '');
  if (DRIVER_MESSAGES.test(cause.message)) return true;
  const { code, syscall } = cause as NodeJS.ErrnoException;
  // Bare, only a socket the pool failed to open (a client's stream is never dialled by us).
  return (
    SOCKET_ERROR_CODES.has(code ?? '') && (wrapped || syscall === 'connect' || syscall === 'getaddrinfo')
  );
}

export interface ErrorHandlerOptions {
  /** Renders a refusal as a page for requests the browser itself made (a popup), rather than JSON. */
  page?: (message: string) => string;
}

/**
 * Turns thrown errors into answers for the routes of `app`'s scope: `{ code, message, field }` JSON (4xx), 503 when
 * the database is unreachable, a generic 500 otherwise; a scope of pages passes `page`.
 */
export function registerErrorHandler(app: FastifyInstance, { page }: ErrorHandlerOptions = {}): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // In the request's language: a message not in the catalogues (a library's own) stays as it is.
    const tr = request.server.i18n?.translator(request.locale ?? 'en');
    const say = (message: string, values?: Values) => (tr ? tr.t(message, values) : message);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'body'),
        message: say(v.message ?? msg('Invalid value')),
      }));
      const first = issues[0];
      const body: ApiErrorBody = {
        code: 'VALIDATION',
        message: first ? first.message : say(msg('Invalid request')),
        field: first?.field,
        issues,
      };
      return reply.status(400).send(body);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      error = new UnavailableError();
    } else if (foreignKeyViolation(error)) {
      // What the write pointed to went in a race with it (a kitchen or account deleted meanwhile).
      request.log.info({ err: error }, 'write raced a deletion');
      error = conflict(msg('Something this refers to has just been deleted: reload the page and try again'));
    }
    if (error instanceof HttpError) {
      const message = say(error.message, error.values);
      const body: ApiErrorBody = { code: error.code, message, field: error.field };
      if (error.headers) reply.headers(error.headers);
      if (page && (request.headers.accept ?? '').includes('text/html'))
        return reply.status(error.statusCode).type('text/html; charset=utf-8').send(page(message));
      return reply.status(error.statusCode).send(body);
    }
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status < 500) {
      // Fastify's own client errors (malformed JSON, wrong content type, body too large), and a body that never
      // came whole: the client hung up, or was cut off for sending it too slowly. Nobody reads that answer.
      if (request.raw.socket?.destroyed) request.log.info('client went away');
      return reply
        .status(status)
        .send({ code: error.code ?? 'BAD_REQUEST', message: error.message, field: 'body' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send({ code: 'INTERNAL', message: say(msg('Something went wrong on our side')) });
  });
}
