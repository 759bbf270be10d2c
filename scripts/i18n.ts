// The translators' side of the product's languages (docs/translating.md):
//   npm run i18n:extract   finds every message in the code and updates locales/messages.pot and each
//                          locales/<locale>.po (new messages empty, gone ones dropped, translations kept)
//   npm run i18n:check     fails when the template is out of date with the code, or a catalogue misses a
//                          translation, has a fuzzy one, or one that is not valid ICU or names other arguments
// A message is the first argument of t(), msg(), tx() or a translator's .t()/.parts(), written as a literal;
// a third literal argument is its context (the same English meaning two things).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { LOCALES, type Locale } from '../src/shared/i18n/locales.js';
import { argumentNames, parseMessage } from '../src/server/i18n/compile.js';
import { poFile, TEMPLATE_FILE } from '../src/server/i18n/catalogues.js';
import { parsePo, writePo, type PoEntry, type PoFile } from '../src/server/i18n/po.js';

const root = join(import.meta.dirname, '..');
const localesDir = join(root, 'locales');
// The server's error helpers take an English message as their first argument (src/server/lib/errors.ts).
const CALLEES = new Set([
  't',
  'msg',
  'tx',
  'badRequest',
  'notFound',
  'conflict',
  'forbidden',
  'unauthorized',
  'tooManyRequests',
]);
const METHODS = new Set(['t', 'parts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const literal = (node: ts.Node | undefined): string | undefined =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;

interface Found {
  id: string;
  context?: string;
  references: string[];
  notes: string[];
}

export function extract(): Found[] {
  const found = new Map<string, Found>();
  for (const file of sourceFiles(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const named =
          (ts.isIdentifier(callee) && CALLEES.has(callee.text)) ||
          (ts.isPropertyAccessExpression(callee) && METHODS.has(callee.name.text));
        const id = named ? literal(node.arguments[0]) : undefined;
        if (id !== undefined) {
          const context = literal(node.arguments[2]);
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          const key = context ? `${context}\u0004${id}` : id;
          const entry = found.get(key) ?? { id, ...(context ? { context } : {}), references: [], notes: [] };
          entry.references.push(`${relative(root, file)}:${line}`);
          // A comment `// translators: …` just before the call's line is passed on to the translator.
          const comments = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
          for (const range of comments) {
            const comment = text.slice(range.pos, range.end).replace(/^\/\/\s*|^\/\*+\s*|\s*\*+\/$/g, '');
            if (/^translators:/i.test(comment)) entry.notes.push(comment.replace(/^translators:\s*/i, ''));
          }
          found.set(key, entry);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found.values()];
}

const keyOf = (e: { id: string; context?: string }) => (e.context ? `${e.context}\u0004${e.id}` : e.id);
const HEADERS = (locale: string): Record<string, string> => ({
  'Project-Id-Version': 'HomeCooked',
  Language: locale,
  'MIME-Version': '1.0',
  'Content-Type': 'text/plain; charset=UTF-8',
  'Content-Transfer-Encoding': '8bit',
  'X-Message-Format': 'ICU MessageFormat (plurals inside the message, not msgid_plural)',
});

function templateOf(found: Found[]): PoFile {
  return {
    headers: HEADERS(''),
    entries: found.map((f) => ({
      id: f.id,
      ...(f.context !== undefined ? { context: f.context } : {}),
      str: '',
      notes: f.notes,
      references: f.references,
      flags: f.id.includes('{') ? ['icu-format'] : [],
      comments: [],
    })),
  };
}

function merged(template: PoFile, locale: Locale, existing: PoFile | undefined): PoFile {
  const old = new Map((existing?.entries ?? []).map((e) => [keyOf(e), e]));
  return {
    headers: { ...HEADERS(locale), ...existing?.headers, Language: locale },
    entries: template.entries.map((e): PoEntry => {
      const before = old.get(keyOf(e));
      return {
        ...e,
        str: before?.str ?? '',
        flags: [...new Set([...e.flags, ...(before?.flags.filter((f) => f === 'fuzzy') ?? [])])],
        comments: before?.comments ?? [],
      };
    }),
  };
}

const read = (file: string): PoFile | undefined => {
  try {
    return parsePo(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

export function check(): string[] {
  const problems: string[] = [];
  const found = extract();
  const template = read(join(localesDir, TEMPLATE_FILE));
  const inCode = new Set(found.map(keyOf));
  const inTemplate = new Set(template?.entries.map(keyOf) ?? []);
  const notExtracted = [...inCode].filter((k) => !inTemplate.has(k));
  const gone = [...inTemplate].filter((k) => !inCode.has(k));
  if (notExtracted.length || gone.length)
    problems.push(
      `locales/${TEMPLATE_FILE} is out of date (${notExtracted.length} new, ${gone.length} gone; first: ${JSON.stringify(notExtracted[0] ?? gone[0])}): run npm run i18n:extract`,
    );
  for (const f of found) {
    try {
      parseMessage(f.id);
    } catch (error) {
      problems.push(`${f.references[0]}: ${(error as Error).message}`);
    }
  }
  for (const locale of LOCALES) {
    if (locale === 'en') continue;
    const po = read(join(localesDir, poFile(locale)));
    const translated = new Map((po?.entries ?? []).map((e) => [keyOf(e), e]));
    const missing: string[] = [];
    for (const f of found) {
      const entry = translated.get(keyOf(f));
      if (!entry || !entry.str || entry.flags.includes('fuzzy')) {
        missing.push(f.id);
        continue;
      }
      try {
        const allowed = argumentNames(f.id);
        const used = argumentNames(entry.str);
        const unknown = [...used].filter((name) => !allowed.has(name));
        if (unknown.length)
          problems.push(
            `locales/${poFile(locale)}: ${JSON.stringify(f.id)} uses {${unknown.join('}, {')}}, which the English does not give`,
          );
      } catch (error) {
        problems.push(`locales/${poFile(locale)}: ${(error as Error).message}`);
      }
    }
    if (missing.length)
      problems.push(
        `locales/${poFile(locale)} misses ${missing.length} of ${found.length} translations, e.g. ${missing
          .slice(0, 3)
          .map((m) => JSON.stringify(m))
          .join(', ')}`,
      );
  }
  return problems;
}

function main(command: string | undefined) {
  if (command === 'extract') {
    const found = extract();
    const template = templateOf(found);
    writeFileSync(join(localesDir, TEMPLATE_FILE), writePo(template));
    for (const locale of LOCALES) {
      if (locale === 'en') continue;
      const file = join(localesDir, poFile(locale));
      writeFileSync(file, writePo(merged(template, locale, read(file))));
    }
    console.log(`${found.length} messages → locales/${TEMPLATE_FILE} and ${LOCALES.length - 1} catalogues`);
  } else if (command === 'check') {
    const problems = check();
    for (const problem of problems) console.error(problem);
    if (problems.length) process.exit(1);
    console.log('Every catalogue holds every message.');
  } else {
    console.error('Usage: node --import tsx scripts/i18n.ts extract|check');
    process.exit(2);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv[2]);
