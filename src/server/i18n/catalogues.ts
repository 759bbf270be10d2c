import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ALL_LOCALES, LOCALES, PSEUDO_LOCALE, type Locale } from '../../shared/i18n/locales.js';
import { messageKey, type Catalogue, type Compiled } from '../../shared/i18n/messages.js';
import { Translator } from '../../shared/i18n/translator.js';
import { compileMessage, compilePseudo } from './compile.js';
import { parsePo, type PoEntry } from './po.js';

/** The source messages (locales/messages.pot, written by `npm run i18n:extract`) and each language's PO file. */
export const TEMPLATE_FILE = 'messages.pot';
export const poFile = (locale: Locale) => `${locale}.po`;

export interface ClientCatalogue {
  /** `/i18n/<locale>.<hash>.json`: cached for good, since its name changes with its content. */
  path: string;
  json: string;
  bodies: { br: Buffer; gzip: Buffer; identity: Buffer };
}

export interface Catalogues {
  /** Every compiled message of `locale` (for English, those with arguments or tags). */
  messages(locale: Locale): Catalogue;
  /** The messages of `keys` only (what a server-rendered page used). */
  pick(locale: Locale, keys: Iterable<string>): Catalogue;
  translator(locale: Locale, used?: Set<string>): Translator;
  client(locale: Locale): ClientCatalogue;
  /** By path (`/i18n/ar.1a2b3c.json`). */
  byPath(path: string): ClientCatalogue | undefined;
}

const entryId = (e: Pick<PoEntry, 'id' | 'context'>) => (e.context ? `${e.context}\u0004${e.id}` : e.id);

/**
 * Compiles every language's catalogue from `dir` (the PO files): a message not translated (missing, empty or
 * fuzzy) is left out and shows in English; `npm run i18n:check` fails the build on any.
 */
export function compileCatalogues(
  dir: string,
  /** A message or translation that cannot be compiled (not valid ICU): thrown by default; a server logs it. */
  onProblem: (problem: string) => void = (problem) => {
    throw new Error(problem);
  },
): Record<Locale, Catalogue> {
  const compile = (message: string, compiler: (m: string) => Compiled): Compiled | undefined => {
    try {
      return compiler(message);
    } catch (error) {
      onProblem((error as Error).message);
      return undefined;
    }
  };
  const templatePath = join(dir, TEMPLATE_FILE);
  const source = existsSync(templatePath)
    ? parsePo(readFileSync(templatePath, 'utf8'), templatePath).entries
    : [];
  const result = {} as Record<Locale, Catalogue>;
  const english: Catalogue = {};
  const pseudo: Catalogue = {};
  const seen = new Map<string, string>();
  for (const entry of source) {
    const key = messageKey(entry.id, entry.context);
    const other = seen.get(key);
    if (other !== undefined && other !== entryId(entry))
      throw new Error(
        `Two messages share the key ${key}: ${JSON.stringify(other)} and ${JSON.stringify(entry.id)}`,
      );
    seen.set(key, entryId(entry));
    const compiled = compile(entry.id, compileMessage);
    if (compiled === undefined) continue;
    // A plain text is its own English: only the rest is sent.
    if (compiled !== entry.id) english[key] = compiled;
    pseudo[key] = compile(entry.id, compilePseudo) ?? compiled;
  }
  result.en = english;
  result[PSEUDO_LOCALE] = pseudo;
  for (const locale of LOCALES) {
    if (locale === 'en') continue;
    const path = join(dir, poFile(locale));
    const catalogue: Catalogue = {};
    if (existsSync(path)) {
      for (const entry of parsePo(readFileSync(path, 'utf8'), path).entries) {
        if (!entry.str || entry.flags.includes('fuzzy')) continue;
        const key = messageKey(entry.id, entry.context);
        if (seen.get(key) !== entryId(entry)) continue;
        const translated = compile(entry.str, compileMessage);
        if (translated !== undefined) catalogue[key] = translated;
      }
    }
    result[locale] = catalogue;
  }
  return result;
}

const compress = (json: string) => {
  const identity = Buffer.from(json);
  return {
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
};

export function createCatalogues(
  dir: string,
  currency: string,
  onProblem?: (problem: string) => void,
): Catalogues {
  const compiled = compileCatalogues(dir, onProblem);
  const clients = new Map<Locale, ClientCatalogue>();
  const translators = new Map<Locale, Translator>();
  const paths = new Map<string, ClientCatalogue>();
  const client = (locale: Locale) => {
    let found = clients.get(locale);
    if (!found) {
      const json = JSON.stringify(compiled[locale]);
      const hash = createHash('sha256').update(json).digest('base64url').slice(0, 10);
      found = { path: `/i18n/${locale}.${hash}.json`, json, bodies: compress(json) };
      clients.set(locale, found);
      paths.set(found.path, found);
    }
    return found;
  };
  return {
    messages: (locale) => compiled[locale],
    pick(locale, keys) {
      const all = compiled[locale];
      const picked: Record<string, Compiled> = {};
      for (const key of keys) {
        const message = all[key];
        if (message !== undefined) picked[key] = message;
      }
      return picked;
    },
    translator(locale, used) {
      if (used) return new Translator({ locale, messages: compiled[locale], currency, used });
      let found = translators.get(locale);
      if (!found) {
        found = new Translator({ locale, messages: compiled[locale], currency });
        translators.set(locale, found);
      }
      return found;
    },
    client,
    byPath(path) {
      if (paths.size === 0) ALL_LOCALES.forEach(client);
      return paths.get(path);
    },
  };
}
