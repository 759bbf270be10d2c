import type { Locale } from './locales.js';
import type { Catalogue } from './messages.js';

/**
 * What every page the server sends tells the browser of its language (`<script type="application/json"
 * id="i18n">`): the messages the server-rendered HTML used, so it hydrates in the same words without waiting, and
 * where the rest of the language's compiled catalogue is (fetched once the page is shown; a page rendered in the
 * browser waits for it).
 */
export interface PageI18n {
  locale: Locale;
  /** The deployment's CURRENCY. */
  currency: string;
  /** `/i18n/<locale>.<hash>.json` */
  catalogue: string;
  messages: Catalogue;
}

export const PAGE_I18N_ID = 'i18n';
