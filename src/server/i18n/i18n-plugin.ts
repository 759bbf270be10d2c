import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  isLocale,
  LOCALE_COOKIE,
  negotiateLocale,
  textDirection,
  type Locale,
} from '../../shared/i18n/locales.js';
import { PAGE_I18N_ID, type PageI18n } from '../../shared/i18n/page-i18n.js';
import { setTranslatorScope, type TranslatorScope } from '../../shared/i18n/translator.js';
import { scriptSafeJson } from '../../shared/page-data.js';
import { negotiateEncoding } from '../lib/accept-encoding.js';
import { projectRoot } from '../lib/project-root.js';
import { createCatalogues, type Catalogues } from './catalogues.js';

/** Each request's translator (`setTranslatorScope`): one storage for every app of the process. */
const languages = new AsyncLocalStorage<TranslatorScope>();
setTranslatorScope(() => languages.getStore());
const LANGUAGE_SCOPE = Symbol('request language scope');

/** The language of a request: the one the visitor picked (the `lang` cookie), else their browser's preference. */
export function requestLocale(request: FastifyRequest): Locale {
  const picked = request.cookies?.[LOCALE_COOKIE];
  return isLocale(picked) ? picked : negotiateLocale(request.headers['accept-language']);
}

/**
 * The product's languages: every language's compiled catalogue (from locales/, compiled once as the server starts),
 * `request.locale`, and `GET /i18n/<locale>.<hash>.json`, the compiled catalogue a browser loads.
 */
export function registerI18n(app: FastifyInstance, dir = join(projectRoot(), 'locales')): void {
  // A message that is not valid ICU shows in English (npm run i18n:check fails the build on it).
  const catalogues = createCatalogues(dir, app.config.payments.currency, (problem) =>
    app.log.warn(`i18n: ${problem}`),
  );
  app.decorate('i18n', catalogues);
  app.decorateRequest('locale', 'en');
  app.decorateRequest(LANGUAGE_SCOPE, null);
  // The request's translator is the current one from here on, in every hook, the validation and the handler,
  // however many awaits in (AsyncLocalStorage): `t()` and `translator()` of shared code are in its language.
  app.addHook('onRequest', (request, _reply, done) => {
    request.locale = requestLocale(request);
    languages.run({ translator: catalogues.translator(request.locale) }, done);
  });
  // The scope to come back to is taken once every onRequest hook has run, so that it holds the stores the others
  // began too (the read-after-write cookie's: src/server/db/read-replica.ts).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    request[LANGUAGE_SCOPE] = new AsyncResource('request-language');
    done(null, payload);
  });
  // A body is read from the socket's events, outside the scope: the steps after it are put back in it.
  app.addHook('preValidation', (request, _reply, done) => {
    const scope = request[LANGUAGE_SCOPE];
    if (scope) scope.runInAsyncScope(done);
    else done();
  });
  app.get(
    '/i18n/:file',
    {
      config: {
        doc: {
          summary: "A language's compiled messages, for the web app",
          tags: ['web app'],
          responses: {
            200: {
              description: 'Compiled messages by key (cached for good: the name holds a hash)',
              type: 'application/json',
            },
            404: { description: 'No such catalogue (an older deployment’s, say)', type: 'application/json' },
          },
        },
      },
    },
    async (request, reply) => {
      const found = catalogues.byPath(request.url.split('?')[0] ?? '');
      if (!found)
        return reply.status(404).send({ code: 'NOT_FOUND', message: 'No such catalogue', field: 'file' });
      const coding = negotiateEncoding(request.headers['accept-encoding']);
      if (coding !== 'identity') reply.header('content-encoding', coding);
      return reply
        .type('application/json; charset=utf-8')
        .header('vary', 'accept-encoding')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(found.bodies[coding]);
    },
  );
}

/**
 * What a page's HTML carries of its language: `<html lang dir>`, and the `#i18n` data (the messages `used` by
 * the server-rendered HTML, and where the rest are). A page rendered in the browser (`used` undefined) preloads
 * the catalogue it waits for.
 */
export function pageLanguage(
  catalogues: Catalogues,
  locale: Locale,
  currency: string,
  used: Iterable<string> | undefined,
): { htmlAttributes: string; headHtml: string; bodyHtml: string } {
  const client = catalogues.client(locale);
  const data: PageI18n = {
    locale,
    currency,
    catalogue: client.path,
    messages: used ? catalogues.pick(locale, used) : {},
  };
  return {
    htmlAttributes: `lang="${locale}" dir="${textDirection(locale)}"`,
    headHtml: used
      ? ''
      : `<link rel="preload" href="${client.path}" as="fetch" type="application/json" crossorigin="anonymous" />`,
    bodyHtml: `<script type="application/json" id="${PAGE_I18N_ID}">${scriptSafeJson(JSON.stringify(data))}</script>`,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    i18n: Catalogues;
  }
  interface FastifyRequest {
    /** The language to answer in (src/server/i18n/i18n-plugin.ts). */
    locale: Locale;
    /** The async scope in which its translator is the current one. */
    [LANGUAGE_SCOPE]: AsyncResource | null;
  }
}
