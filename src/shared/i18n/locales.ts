/**
 * The languages of the product. English is the source: every message is written in English in the code (the
 * spec's texts exactly as the spec has them), and each other language is a catalogue of translations of those
 * messages (locales/<locale>.po). `en-XA` is the pseudo-locale: English accented and lengthened, made from the
 * source when the catalogues are compiled, to find untranslated and clipped text; it is never offered.
 */
export const LOCALES = ['en', 'es', 'fr', 'hi', 'ar'] as const;
export const PSEUDO_LOCALE = 'en-XA';
export type OfferedLocale = (typeof LOCALES)[number];
export type Locale = OfferedLocale | typeof PSEUDO_LOCALE;
export const ALL_LOCALES: readonly Locale[] = [...LOCALES, PSEUDO_LOCALE];
export const SOURCE_LOCALE: Locale = 'en';

/** Each language's name in itself, as the picker shows it. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  hi: 'हिन्दी',
  ar: 'العربية',
  'en-XA': 'Ëñĝļîšĥ (pseudo)',
};

/** Distances are shown in miles in American English (the product's English), in kilometres elsewhere. */
export const distanceUnit = (locale: Locale): 'mile' | 'kilometer' =>
  locale === 'en' ? 'mile' : 'kilometer';

/** The cookie that remembers the language a visitor picked (a year). */
export const LOCALE_COOKIE = 'lang';

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (ALL_LOCALES as readonly string[]).includes(value);

/** Which way a language's text runs. */
export const textDirection = (locale: Locale): 'ltr' | 'rtl' => (locale === 'ar' ? 'rtl' : 'ltr');

/**
 * The locale `Intl` formats numbers, money and dates with: English is the spec's American English ('$2.99');
 * the pseudo-locale formats as English.
 */
export const intlLocale = (locale: Locale): string =>
  locale === 'en' || locale === 'en-XA' ? 'en-US' : locale;

/**
 * The offered language an `Accept-Language` header prefers (RFC 9110 §12.5.4: quality values, a region falling
 * back to its language), or English. `fr-CA;q=0.8, ar` → `ar`; `de, es;q=0.5` → `es`.
 */
export function negotiateLocale(header: string | undefined): OfferedLocale {
  if (!header) return 'en';
  let best: { locale: OfferedLocale; q: number; order: number } | undefined;
  const ranges = header.slice(0, 1000).split(',');
  ranges.forEach((range, order) => {
    const [tag = '', ...params] = range.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0 || q > 1) return;
    const language = tag.trim().toLowerCase().split('-')[0] ?? '';
    const locale = LOCALES.find((l) => l === language);
    if (locale && (!best || q > best.q)) best = { locale, q, order };
  });
  return best?.locale ?? 'en';
}
