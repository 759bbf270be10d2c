/**
 * Messages are ICU MessageFormat, written in English in the code and translated in locales/<locale>.po. They are
 * compiled before they reach a browser (scripts/i18n.ts, src/server/i18n/catalogues.ts) into the compact form
 * below, so no message parser ever runs in a browser: formatting one is a walk over arrays.
 */

/** A compiled message: a plain text, or parts. */
export type Compiled = string | Part[];
export type Part =
  | string
  /** `#` inside a plural: the number, formatted. */
  | [0]
  /** `{name}` */
  | [1, string]
  /** `{name, number}` / `{name, number, integer|percent}` */
  | [2, string, string?]
  /** `{name, plural, offset:n =0 {…} one {…} other {…}}` */
  | [3, string, number, Record<string, Compiled>]
  /** `{name, selectordinal, …}` */
  | [4, string, number, Record<string, Compiled>]
  /** `{name, select, a {…} other {…}}` */
  | [5, string, Record<string, Compiled>]
  /** `<name>…</name>`: the value is a function of what the tag holds. */
  | [6, string, Compiled]
  /** `{name, date|time, short|medium|long|full}` */
  | [7, string, 'date' | 'time', string?];

/** Compiled messages by key (`messageKey`). */
export type Catalogue = Record<string, Compiled>;

export type Value = string | number | Date | null | undefined | ((chunks: unknown[]) => unknown);
export type Values = Record<string, Value>;

/**
 * A message's key in a compiled catalogue: a 32-bit FNV-1a hash of its English text (and context), in base 36.
 * Compiling fails if two messages of the catalogue share one.
 */
export function messageKey(message: string, context?: string): string {
  const text = context ? `${context}\u0004${message}` : message;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

export interface FormatContext {
  /** The `Intl` locale. */
  locale: string;
  /**
   * Right-to-left text: a text value (a dish's name, an address) is isolated (U+2068 … U+2069), so that a Latin
   * name with its punctuation, or a number, reads as itself inside an Arabic sentence and does not reorder it.
   */
  isolate?: boolean;
  plural(n: number, ordinal: boolean): string;
  number(n: number, style?: string): string;
  date(d: Date, kind: 'date' | 'time', style?: string): string;
}

const asDate = (value: Value) => (value instanceof Date ? value : new Date(value as number | string));

/** Appends the parts of `message` with `values` to `out` (strings, and whatever tag functions give). */
export function formatInto(
  message: Compiled,
  values: Values,
  context: FormatContext,
  out: unknown[],
  pound?: number,
): void {
  if (typeof message === 'string') {
    out.push(message);
    return;
  }
  for (const part of message) {
    if (typeof part === 'string') {
      out.push(part);
      continue;
    }
    switch (part[0]) {
      case 0:
        out.push(pound === undefined ? '#' : context.number(pound));
        break;
      case 1: {
        const value = values[part[1]];
        out.push(
          typeof value === 'number'
            ? context.number(value)
            : value instanceof Date
              ? context.date(value, 'date')
              : typeof value === 'string' && context.isolate && value !== ''
                ? `\u2068${value}\u2069`
                : (value ?? ''),
        );
        break;
      }
      case 2:
        out.push(context.number(Number(values[part[1]]), part[2]));
        break;
      case 3:
      case 4: {
        const n = Number(values[part[1]]);
        const cases = part[3];
        const exact = cases[`=${n}`];
        const chosen = exact ?? cases[context.plural(n - part[2], part[0] === 4)] ?? cases.other ?? '';
        formatInto(chosen, values, context, out, n - part[2]);
        break;
      }
      case 5: {
        const cases = part[2];
        formatInto(cases[String(values[part[1]])] ?? cases.other ?? '', values, context, out, pound);
        break;
      }
      case 6: {
        const inner: unknown[] = [];
        formatInto(part[2], values, context, inner, pound);
        const tag = values[part[1]];
        if (typeof tag === 'function') out.push(tag(inner));
        else out.push(...inner);
        break;
      }
      case 7:
        out.push(context.date(asDate(values[part[1]]), part[2], part[3]));
        break;
    }
  }
}

/** Whether formatting gave text alone (no tag function's value): then it joins into one string. */
export const allText = (parts: unknown[]): parts is string[] => parts.every((p) => typeof p === 'string');
