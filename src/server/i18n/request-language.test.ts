import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Locale } from '../../shared/i18n/locales.js';
import { formatCents } from '../../shared/money.js';
import { t, translator, Translator } from '../../shared/i18n/translator.js';
import { buildApp } from '../app.js';
import type { Database } from '../db/database.js';
import { badRequest } from '../lib/errors.js';
import { projectRoot } from '../lib/project-root.js';
import { testConfig } from '../test/test-app.js';
import { ENGINES, openTestDatabase } from '../test/test-database.js';
import { compileCatalogues } from './catalogues.js';

const catalogues = compileCatalogues(join(projectRoot(), 'locales'));
const words = (locale: Locale) => new Translator({ locale, messages: catalogues[locale], currency: 'USD' });

/** Resolves once `count` callers wait on it: requests that each reach it are all in flight at once. */
function barrier(count: number) {
  let waiting = 0;
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    waiting += 1;
    if (waiting === count) open();
    return opened;
  };
}

describe.each(ENGINES)("a handler's words after an await [%s]", (engine) => {
  let database: Database;
  let app: FastifyInstance;
  let meet = barrier(2);

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({ config: testConfig(), database, webDir: '/nonexistent' });
    // A handler as any of ours: it reads the database, waits for the other request, and only then words its
    // refusal (a label and an amount, in the current language: no translator handed down).
    app.post('/test/late-words', { schema: { body: z.object({ item: z.string() }) } }, async (request) => {
      await app.db.execute(sql`select 1`);
      await meet();
      await app.db.execute(sql`select 1`);
      throw badRequest('{label} must be at most {max} characters', (request.body as { item: string }).item, {
        label: t('Item'),
        max: formatCents(123456),
      });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('are in its own request’s language, two requests in two languages at once', async () => {
    meet = barrier(2);
    const ask = (headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/test/late-words', headers, payload: { item: 'item' } });
    const [fr, es] = await Promise.all([
      ask({ 'accept-language': 'fr-FR' }),
      ask({ cookie: 'lang=es', 'accept-language': 'fr' }),
    ]);
    for (const [res, locale] of [
      [fr, 'fr'],
      [es, 'es'],
    ] as const) {
      const tr = words(locale);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({
        code: 'VALIDATION',
        field: 'item',
        message: tr.t('{label} must be at most {max} characters', {
          label: tr.t('Item'),
          max: formatCents(123456, tr),
        }),
      });
    }
    expect(fr.json<{ message: string }>().message).toContain('Plat');
    expect(es.json<{ message: string }>().message).toContain('Plato');
  });

  it('are the server’s own outside a request', () => {
    expect(translator().locale).toBe('en');
  });
});
