import { intlLocale, textDirection, type Locale } from './locales.js';
import {
  allText,
  formatInto,
  messageKey,
  type Catalogue,
  type FormatContext,
  type Values,
} from './messages.js';

const keys = new Map<string, string>();
const keyOf = (message: string, context: string | undefined) => {
  const id = context ? `${context}\u0004${message}` : message;
  let key = keys.get(id);
  if (key === undefined) {
    key = messageKey(message, context);
    if (keys.size < 5000) keys.set(id, key);
  }
  return key;
};

export interface TranslatorOptions {
  locale: Locale;
  /** The compiled messages of `locale` (for English: those with arguments; a plain English text is its own). */
  messages: Catalogue;
  /** The deployment's `CURRENCY` (ISO 4217). */
  currency: string;
  /** Records the key of every message used (what a server-rendered page needs in the browser). */
  used?: Set<string>;
}

/**
 * Messages and numbers, money, dates and lists in one language. A message missing from the catalogue (not
 * translated yet, or its catalogue still loading) is shown in English.
 */
export class Translator implements FormatContext {
  readonly locale: Locale;
  /** The locale `Intl` formats with. */
  readonly intl: string;
  readonly currency: string;
  readonly isolate: boolean;
  private messages: Catalogue;
  used: Set<string> | undefined;
  private readonly cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();

  constructor(options: TranslatorOptions) {
    this.locale = options.locale;
    this.intl = intlLocale(options.locale);
    this.isolate = textDirection(options.locale) === 'rtl';
    this.currency = options.currency;
    this.messages = options.messages;
    this.used = options.used;
  }

  /** Adds compiled messages (the rest of the catalogue, once loaded). */
  add(messages: Catalogue): void {
    this.messages = { ...this.messages, ...messages };
  }

  /** Whether the message is in the catalogue. */
  has(message: string, context?: string): boolean {
    return keyOf(message, context) in this.messages;
  }

  /** `message` (English, ICU MessageFormat) in this language, with `values`. */
  t(message: string, values: Values = {}, context?: string): string {
    const parts = this.parts(message, values, context);
    return allText(parts) ? parts.join('') : parts.map(String).join('');
  }

  /** Like `t`, as parts: `<b>…</b>` tags give what the value named `b` (a function) makes of what they hold. */
  parts(message: string, values: Values = {}, context?: string): unknown[] {
    const key = keyOf(message, context);
    this.used?.add(key);
    const compiled = this.messages[key];
    const out: unknown[] = [];
    if (compiled !== undefined) formatInto(compiled, values, this, out);
    else out.push(message.includes('{') || message.includes('<') ? fallback(message, values) : message);
    return out;
  }

  private cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(
    key: string,
    make: () => T,
  ): T {
    let value = this.cache.get(key) as T | undefined;
    if (!value) {
      value = make();
      this.cache.set(key, value);
    }
    return value;
  }

  plural(n: number, ordinal: boolean): string {
    // English's cardinal rule for a whole number, without building `Intl.PluralRules` (see `number`).
    if (!ordinal && this.intl === 'en-US' && Number.isInteger(n) && n >= 0) return n === 1 ? 'one' : 'other';
    return this.cached(
      `p${ordinal}`,
      () => new Intl.PluralRules(this.intl, { type: ordinal ? 'ordinal' : 'cardinal' }),
    ).select(n);
  }

  number(n: number, style?: string): string {
    // A whole number below 1,000 reads as its digits in English: the first `Intl.NumberFormat` a page builds loads
    // the browser's number data, about 50 ms of a slow phone's main thread for the cart's 'Cart (0)' (issue 32).
    if (style === undefined && this.intl === 'en-US' && Number.isInteger(n) && n >= 0 && n < 1000)
      return String(n);
    const options: Intl.NumberFormatOptions =
      style === 'percent' ? { style: 'percent' } : style === 'integer' ? { maximumFractionDigits: 0 } : {};
    return this.cached(`n${style ?? ''}`, () => new Intl.NumberFormat(this.intl, options)).format(n);
  }

  date(d: Date, kind: 'date' | 'time', style = 'medium'): string {
    const options: Intl.DateTimeFormatOptions =
      kind === 'date'
        ? { dateStyle: style as 'medium' }
        : { timeStyle: (style === 'medium' ? 'short' : style) as 'short' };
    return this.cached(`d${kind}${style}`, () => new Intl.DateTimeFormat(this.intl, options)).format(d);
  }

  /** `Intl.DateTimeFormat` in this language (cached by its options). */
  dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
    return this.cached(`D${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(this.intl, options));
  }

  /** `Intl.NumberFormat` in this language (cached by its options). */
  numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
    return this.cached(`N${JSON.stringify(options)}`, () => new Intl.NumberFormat(this.intl, options));
  }

  /** An amount in minor units of `currency` (the deployment's by default): '$2.99' in English, '2,99 $US' in French. */
  money(minor: number, currency = this.currency): string {
    const digits = minorDigitsOf(currency);
    return this.numberFormat({
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(minor / 10 ** digits);
  }

  /** 'a, b and c' in this language. */
  list(items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction'): string {
    return new Intl.ListFormat(this.intl, { type }).format(items);
  }
}

const minorDigitsCache = new Map<string, number>();
/** How many minor units a currency has after its decimal point (USD 2, JPY 0), as ISO 4217 says. */
export function minorDigitsOf(currency: string): number {
  let digits = minorDigitsCache.get(currency);
  if (digits === undefined) {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2;
    minorDigitsCache.set(currency, digits);
  }
  return digits;
}

/**
 * An English message with arguments whose compiled form is not here (its catalogue still loading): each argument
 * is replaced by its value and tags are dropped. Never more than a moment's stand-in.
 */
const fallback = (message: string, values: Values): string =>
  message
    // Tags first: a value (what a person typed) is put in as it is.
    .replace(/<\/?\w+>/g, '')
    .replace(/\{\s*(\w+)[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/g, (_, name: string) => String(values[name] ?? ''));

let current: Translator = new Translator({ locale: 'en', messages: {}, currency: 'USD' });

/** Where the current translator is kept while a server answers a request: that request's own. */
export interface TranslatorScope {
  translator: Translator;
}
let scopeOf: () => TranslatorScope | undefined = () => undefined;

/**
 * On the server, the scope of the request being answered (its `AsyncLocalStorage`, src/server/i18n): `translator()`
 * and `t()` are then in that request's language however many awaits in, whatever other requests run meanwhile; with
 * none (a worker, the browser), the one `setTranslator` set.
 */
export function setTranslatorScope(scope: () => TranslatorScope | undefined): void {
  scopeOf = scope;
}

/** The language the app renders in: set once in the browser, and around each render on the server. */
export function setTranslator(translator: Translator): Translator {
  const scope = scopeOf();
  if (scope) {
    const previous = scope.translator;
    scope.translator = translator;
    return previous;
  }
  const previous = current;
  current = translator;
  return previous;
}

export const translator = (): Translator => scopeOf()?.translator ?? current;

/** `message` (English, ICU MessageFormat) in the current language. */
export const t = (message: string, values?: Values, context?: string): string =>
  translator().t(message, values, context);

/**
 * Marks an English text for translation where it is defined (a constant), to be translated where it is shown:
 * `const SOLD_OUT = msg('Sold out')` … `t(SOLD_OUT)`.
 */
export const msg = <T extends string>(message: T): T => message;
