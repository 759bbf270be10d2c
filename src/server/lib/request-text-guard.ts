import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';
import { msg } from '../../shared/i18n/translator.js';

// C0 control characters and DEL: PostgreSQL text cannot hold NUL, and no query or path parameter of ours is more
// than one line of text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F]/;

/**
 * Why a query or path parameter's text is refused (an English ICU message whose `{name}` is the parameter's name),
 * or undefined when it is fine.
 */
export function parameterTextProblem(value: string): string | undefined {
  if (CONTROL.test(value)) return msg('{name} must be text without control characters');
  if (!value.isWellFormed()) return msg('{name} must be valid UTF-8 text');
  return undefined;
}

const decode = (text: string) => {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined; // not percent-encoded UTF-8 (`%ff`, an encoded lone surrogate, a stray `%`)
  }
};

/** A parameter's name as it may be shown back: printable, at most 100 characters. */
const printable = (name: string) => JSON.stringify(name).slice(1, -1).slice(0, 100);

/**
 * Every query and path parameter of every route is checked before anything reads it, as body fields are by their
 * schemas: text that is not percent-encoded UTF-8, a NUL (which PostgreSQL refuses with an error of its own) or
 * another control character is a 400 naming the parameter, whatever the route's own schema says of it. The query
 * parser would keep undecodable text as it came, so the query string is read here as the client sent it.
 */
export function registerRequestTextGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const at = request.url.indexOf('?');
    if (at >= 0) {
      for (const pair of request.url.slice(at + 1).split('&')) {
        if (pair === '') continue;
        const equals = pair.indexOf('=');
        const rawName = equals < 0 ? pair : pair.slice(0, equals);
        const name = decode(rawName);
        if (name === undefined) throw badRequest('A parameter name is not valid text', printable(rawName));
        if (CONTROL.test(name))
          throw badRequest('A parameter name must be text without control characters', printable(name));
        if (!name.isWellFormed())
          throw badRequest('A parameter name must be valid UTF-8 text', printable(name));
        const value = equals < 0 ? '' : decode(pair.slice(equals + 1));
        if (value === undefined) throw badRequest('{name} must be valid UTF-8 text', name, { name });
        const problem = parameterTextProblem(value);
        if (problem) throw badRequest(problem, name, { name });
      }
    }
    for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
      if (typeof value !== 'string') continue;
      const problem = parameterTextProblem(value);
      if (problem) throw badRequest(problem, name, { name });
    }
  });
}
