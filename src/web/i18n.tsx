import { isLocale, LOCALE_COOKIE, type Locale } from '../shared/i18n/locales.js';
import { cloneElement, isValidElement, type ReactNode } from 'react';
import type { Catalogue, Values } from '../shared/i18n/messages.js';
import { PAGE_I18N_ID, type PageI18n } from '../shared/i18n/page-i18n.js';
import { setTranslator, translator, Translator } from '../shared/i18n/translator.js';

export { t, msg, translator } from '../shared/i18n/translator.js';

const element = typeof document === 'undefined' ? null : document.getElementById(PAGE_I18N_ID);
const page: PageI18n | undefined = element?.textContent
  ? (JSON.parse(element.textContent) as PageI18n)
  : undefined;

if (page)
  setTranslator(new Translator({ locale: page.locale, messages: page.messages, currency: page.currency }));

let loading: Promise<void> | undefined;

/**
 * The whole compiled catalogue of the page's language: what the server-rendered HTML did not use (a dialog, the
 * next page). Asked for once; a page waits for it before showing anything the server did not render.
 */
export function messagesReady(): Promise<void> {
  if (!page) return Promise.resolve();
  loading ??= (async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(page.catalogue);
        if (!response.ok) throw new Error(`${page.catalogue}: ${response.status}`);
        translator().add((await response.json()) as Catalogue);
        return;
      } catch (error) {
        // Offline or a deployment meanwhile: the English stand-ins stay until it loads.
        if (attempt >= 3) {
          console.warn('The messages of this language could not be loaded', error);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
      }
    }
  })();
  return loading;
}

/** The page's language (on the server, the language of the page being rendered). */
export const pageLocale = (): Locale => translator().locale;

/** Remembers `locale` for this browser (a year) and shows the page again in it. */
export function chooseLocale(locale: string): void {
  if (!isLocale(locale)) return;
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * A message with markup: each `<name>…</name>` tag becomes what the function `values[name]` makes of what it
 * holds. `tx('Read our <link>terms</link>', { link: (chunks) => <a href="/terms">{chunks}</a> })`
 */
export function tx(message: string, values: Values, context?: string): ReactNode {
  const parts = translator().parts(message, values, context);
  return parts.map((part, index) =>
    isValidElement(part) ? cloneElement(part, { key: index }) : (part as ReactNode),
  );
}
