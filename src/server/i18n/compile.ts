import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Compiled, Part } from '../../shared/i18n/messages.js';

/** The ICU message's elements; throws with the message in the error when it is not valid ICU. */
export function parseMessage(message: string): MessageFormatElement[] {
  try {
    return parse(message, { requiresOtherClause: true });
  } catch (error) {
    throw new Error(`Not a valid ICU message (${(error as Error).message}): ${message}`, { cause: error });
  }
}

const styleOf = (style: unknown): string | undefined => (typeof style === 'string' ? style : undefined);

function compileElements(elements: MessageFormatElement[], text: (s: string) => string): Part[] {
  const parts: Part[] = [];
  const cases = (options: Record<string, { value: MessageFormatElement[] }>) =>
    Object.fromEntries(
      Object.entries(options).map(([key, option]) => [key, simplify(compileElements(option.value, text))]),
    );
  for (const element of elements) {
    switch (element.type) {
      case TYPE.literal: {
        const last = parts[parts.length - 1];
        if (typeof last === 'string') parts[parts.length - 1] = last + text(element.value);
        else parts.push(text(element.value));
        break;
      }
      case TYPE.argument:
        parts.push([1, element.value]);
        break;
      case TYPE.number:
        parts.push(styleOf(element.style) ? [2, element.value, styleOf(element.style)] : [2, element.value]);
        break;
      case TYPE.date:
      case TYPE.time:
        parts.push(
          styleOf(element.style)
            ? [7, element.value, element.type === TYPE.date ? 'date' : 'time', styleOf(element.style)]
            : [7, element.value, element.type === TYPE.date ? 'date' : 'time'],
        );
        break;
      case TYPE.plural:
        parts.push([
          element.pluralType === 'ordinal' ? 4 : 3,
          element.value,
          element.offset,
          cases(element.options),
        ]);
        break;
      case TYPE.select:
        parts.push([5, element.value, cases(element.options)]);
        break;
      case TYPE.pound:
        parts.push([0]);
        break;
      case TYPE.tag:
        parts.push([6, element.value, simplify(compileElements(element.children, text))]);
        break;
    }
  }
  return parts;
}

const simplify = (parts: Part[]): Compiled =>
  parts.length === 0 ? '' : parts.length === 1 && typeof parts[0] === 'string' ? parts[0] : parts;

/** A message compiled for formatting without a parser (src/shared/i18n/messages.ts). */
export function compileMessage(message: string): Compiled {
  return simplify(compileElements(parseMessage(message), (s) => s));
}

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i] ?? c,
  ]),
);

/**
 * The pseudo-locale's message: every letter of the English accented, the text made about 40 % longer (German and
 * French run that much longer than English) and bracketed, so that untranslated text (plain English) and text that
 * does not fit stand out; arguments, numbers and tags are kept.
 */
export function compilePseudo(message: string): Compiled {
  const pseudo = (s: string) => [...s].map((c) => ACCENTED[c] ?? c).join('');
  const parts = compileElements(parseMessage(message), pseudo);
  const letters = message.replace(/\{[^{}]*\}/g, '').replace(/[^A-Za-z]/g, '').length;
  const padding = '·'.repeat(Math.ceil(letters * 0.4));
  return simplify(
    [`⟦`, ...parts, `${padding}⟧`].reduce<Part[]>((all, part) => {
      const last = all[all.length - 1];
      if (typeof part === 'string' && typeof last === 'string') all[all.length - 1] = last + part;
      else all.push(part);
      return all;
    }, []),
  );
}

/** The names of a message's arguments and tags (a translation may use no others). */
export function argumentNames(message: string): Set<string> {
  const names = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      names.add(element.value);
      if (element.type === TYPE.plural || element.type === TYPE.select)
        for (const option of Object.values(element.options)) walk(option.value);
      if (element.type === TYPE.tag) walk(element.children);
    }
  };
  walk(parseMessage(message));
  return names;
}
