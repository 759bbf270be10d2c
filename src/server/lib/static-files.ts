import { redirect } from './route-doc.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, RouteHandlerMethod } from 'fastify';
import type { Locale } from '../../shared/i18n/locales.js';
import { appRoutePatterns } from '../../shared/paths.js';
import { withLanguage, type PageLanguageHtml } from './page-language.js';

export interface WebApp {
  /** Sends the app's index.html; the browser's router shows the page (or its not-found page). */
  sendShell(reply: FastifyReply, status: number): FastifyReply;
}

export interface WebAppOptions {
  /** The app's routes rendered on the server, by pattern, given the built index.html; the others get the shell. */
  /** The language parts of a page rendered in the browser, in `locale`. */
  shellLanguage?: (locale: Locale) => PageLanguageHtml;
  serverRendered?: (
    indexHtml: string,
    sendShell: WebApp['sendShell'],
  ) => Record<string, RouteHandlerMethod> | undefined;
}

/**
 * Serves the built web app from `webDir`: hashed assets cached for a year (gzip/brotli copies when present),
 * and index.html on every route of the app, so direct entry and reload work. Source maps are never served.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDir: string,
  options: WebAppOptions = {},
): Promise<WebApp | undefined> {
  const indexFile = join(webDir, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const indexHtml = readFileSync(indexFile, 'utf8');
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    // The build keeps source maps beside the scripts for reading a stack trace; they hold the whole source.
    allowedPath: (path) => !path.endsWith('.map'),
    setHeaders(res, path) {
      const hashed = path.includes('/assets/');
      res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
  // One shell per language, made when first asked for.
  const shells = new Map<Locale, string>();
  const shell = (locale: Locale) => {
    let html = shells.get(locale);
    if (html === undefined) {
      html = withLanguage(indexHtml, options.shellLanguage?.(locale));
      shells.set(locale, html);
    }
    return html;
  };
  const webApp: WebApp = {
    sendShell: (reply, status) =>
      reply
        .status(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-language, cookie')
        .send(shell(reply.request.locale)),
  };
  // Browsers ask for /favicon.ico on pages that name no icon (the sign-in provider's): answer with ours.
  app.get(
    '/favicon.ico',
    {
      config: {
        doc: {
          summary: 'Our icon',
          tags: ['web app'],
          responses: { 301: redirect('To /favicon.svg') },
        },
      },
    },
    (_request, reply) => reply.redirect('/favicon.svg', 301),
  );
  const rendered = options.serverRendered?.(indexHtml, webApp.sendShell) ?? {};
  for (const pattern of appRoutePatterns) {
    app.get(pattern, rendered[pattern] ?? ((_request, reply) => webApp.sendShell(reply, 200)));
  }
  return webApp;
}
