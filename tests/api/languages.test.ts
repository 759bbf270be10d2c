import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { compileCatalogues } from '../../src/server/i18n/catalogues.js';
import { projectRoot } from '../../src/server/lib/project-root.js';
import { buildKitchen, buildMenuItem } from '../../src/server/test/builders.js';
import { describeEachEngine } from '../../src/server/test/test-app.js';
import type { Locale } from '../../src/shared/i18n/locales.js';
import type { PageI18n } from '../../src/shared/i18n/page-i18n.js';
import { messageKey } from '../../src/shared/i18n/messages.js';
import { Translator } from '../../src/shared/i18n/translator.js';
import * as pageRenderer from '../../src/web/ssr-entry.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

const webDir = mkdtempSync(join(tmpdir(), 'mkt-lang-web-'));
copyFileSync(join(projectRoot(), 'index.html'), join(webDir, 'index.html'));
const catalogues = compileCatalogues(join(projectRoot(), 'locales'));
const words = (locale: Locale) => new Translator({ locale, messages: catalogues[locale], currency: 'USD' });

const i18nOf = (html: string): PageI18n => {
  const body = /<script type="application\/json" id="i18n">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!body) throw new Error('no #i18n data');
  return JSON.parse(body) as PageI18n;
};

describeEachEngine(
  'the language of pages and answers (issue 34)',
  (get) => {
    const page = (url: string, headers: Record<string, string>) =>
      get().app.inject({ url, headers: { accept: 'text/html', ...headers } });

    it("is the browser's (Accept-Language) on a first visit; Arabic runs right to left from the server", async () => {
      const ar = await page('/', { 'accept-language': 'ar-SY, fr;q=0.5' });
      expect(ar.body).toMatch(/<html lang="ar" dir="rtl"/);
      expect(ar.headers.vary).toContain('accept-language');
      expect(ar.body).toContain(words('ar').t('Kitchen Register'));
      expect(i18nOf(ar.body).locale).toBe('ar');
      const fr = await page('/', { 'accept-language': 'de-DE, fr;q=0.8' });
      expect(fr.body).toMatch(/<html lang="fr" dir="ltr"/);
      const unknown = await page('/', { 'accept-language': 'de-DE' });
      expect(unknown.body).toMatch(/<html lang="en" dir="ltr"/);
      expect(unknown.body).toContain('Kitchen Register');
    });

    it('is the one picked (the lang cookie) over the browser’s; a cookie naming no language is ignored', async () => {
      const hi = await page('/', { 'accept-language': 'ar', cookie: 'lang=hi' });
      expect(hi.body).toMatch(/<html lang="hi" dir="ltr"/);
      const bogus = await page('/', { 'accept-language': 'es', cookie: 'lang=../../etc' });
      expect(bogus.body).toMatch(/<html lang="es"/);
    });

    it('a rendered page carries exactly the messages its render used, a kitchen’s page its title in the language', async () => {
      const { kitchen } = await buildKitchen(get(), { name: 'Tiffin Lang', category: 'Indian' });
      await buildMenuItem(get(), kitchen, { item: 'Masala dosa', secondName: 'मसाला डोसा' });
      const res = await page(`/KitchenMenu/${kitchen.uid}`, { cookie: 'lang=es' });
      const data = i18nOf(res.body);
      const es = words('es');
      expect(res.body).toContain(es.t('Full Menu'));
      expect(res.body).toContain('मसाला डोसा');
      expect(data.messages[messageKey('Full Menu')]).toBe(es.t('Full Menu'));
      // Not a message of the cart page, which this page does not show.
      expect(data.messages[messageKey('Your cart is empty.')]).toBeUndefined();
      expect(Object.keys(data.messages).length).toBeLessThan(150);
      expect(res.body).toContain(
        `<title>${es.t('{kitchen} — {cuisine} | HomeCooked', { kitchen: 'Tiffin Lang', cuisine: 'Indian' })}</title>`,
      );
      // The same page in English is another page (cached apart).
      const en = await page(`/KitchenMenu/${kitchen.uid}`, {});
      expect(en.body).toContain('Full Menu');
      expect(en.body).not.toContain(es.t('Full Menu'));
    });

    it("a page rendered in the browser preloads its language's catalogue, which is served compressed and cached for good", async () => {
      const shell = await page('/ShoppingCart', { cookie: 'lang=ar' });
      const { catalogue } = i18nOf(shell.body);
      expect(catalogue).toMatch(/^\/i18n\/ar\.[\w-]+\.json$/);
      expect(shell.body).toContain(`<link rel="preload" href="${catalogue}" as="fetch"`);
      const res = await get().app.inject({ url: catalogue, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBe('br');
      const messages = JSON.parse(brotliDecompressSync(res.rawPayload).toString()) as Record<string, unknown>;
      expect(messages[messageKey('Full Menu')]).toBe(words('ar').t('Full Menu'));
      for (const url of [
        '/i18n/ar.json',
        '/i18n/xx.abc.json',
        '/i18n/..%2f..%2fpackage.json',
        `${catalogue}x`,
      ]) {
        const missing = await get().app.inject({ url });
        expect(missing.statusCode, url).toBe(404);
        expect(missing.json()).toMatchObject({ code: 'NOT_FOUND', field: 'file' });
      }
    });

    it('a refusal is in the request’s language, naming its field', async () => {
      const { cookie } = await buildKitchen(get());
      const res = await get().app.inject({
        method: 'POST',
        url: '/api/kitchen/menu',
        headers: { cookie: `${cookie}; lang=fr` },
        payload: {
          item: '',
          imageLink: 'https://img.example/a.png',
          price: '4',
          wait: '10 min',
          allergenAnswers: answersWith(),
        },
      });
      expect(res.statusCode).toBe(400);
      const body = res.json<{ field: string; message: string }>();
      expect(body.field).toBe('item');
      const fr = words('fr');
      expect(body.message).toBe(fr.t('{label} is required', { label: fr.t('Item') }));
      expect(body.message).not.toContain('required');
      const english = await get().app.inject({
        method: 'POST',
        url: '/api/kitchen/menu',
        headers: { cookie },
        payload: {
          item: '',
          imageLink: 'https://img.example/a.png',
          price: '4',
          wait: '10 min',
          allergenAnswers: answersWith(),
        },
      });
      expect(english.json<{ message: string }>().message).toBe('Item is required');
    });
  },
  {},
  { webDir, pageRenderer },
);
