/**
 * The gettext PO files translators work in (locales/<locale>.po; locales/messages.pot is the template): the subset
 * we write and read: `msgctxt`, `msgid`, `msgstr`, translator (`# `), extracted (`#.`), reference (`#:`) and flag
 * (`#,`) comments, strings split over lines. Plural forms are ICU plurals inside one message, not `msgid_plural`.
 */
export interface PoEntry {
  context?: string;
  id: string;
  str: string;
  /** `#.`: for the translator, from the code. */
  notes: string[];
  /** `#:`: where the message is used (file:line). */
  references: string[];
  /** `#,`: `fuzzy` means not checked yet (treated as missing). */
  flags: string[];
  /** `# `: the translator's own. */
  comments: string[];
}

export interface PoFile {
  /** The header entry's fields (Language, Content-Type, …). */
  headers: Record<string, string>;
  entries: PoEntry[];
}

const unquote = (text: string, where: string): string => {
  const trimmed = text.trim();
  if (!trimmed.startsWith('"') || !trimmed.endsWith('"') || trimmed.length < 2)
    throw new Error(`${where}: expected a quoted string, got ${trimmed}`);
  return trimmed
    .slice(1, -1)
    .replace(/\\(["\\nt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
};

export function parsePo(text: string, file = 'PO file'): PoFile {
  const entries: PoEntry[] = [];
  let entry: PoEntry | undefined;
  let field: 'context' | 'id' | 'str' | undefined;
  const fresh = (): PoEntry => ({ id: '', str: '', notes: [], references: [], flags: [], comments: [] });
  const flush = () => {
    if (entry && (field || entry.id)) entries.push(entry);
    entry = undefined;
    field = undefined;
  };
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    const where = `${file}:${index + 1}`;
    if (line === '') return flush();
    if (line.startsWith('#')) {
      if (field) flush();
      entry ??= fresh();
      if (line.startsWith('#.')) entry.notes.push(line.slice(2).trim());
      else if (line.startsWith('#:')) entry.references.push(...line.slice(2).trim().split(/\s+/));
      else if (line.startsWith('#,'))
        entry.flags.push(
          ...line
            .slice(2)
            .split(',')
            .map((f) => f.trim()),
        );
      else if (!line.startsWith('#~') && !line.startsWith('#|')) entry.comments.push(line.slice(1).trim());
      return;
    }
    const keyword = /^(msgctxt|msgid|msgstr)\s+(.*)$/.exec(line);
    if (keyword) {
      // A new entry starts at its msgctxt or msgid, unless this one is still at its comments or its context.
      if ((keyword[1] === 'msgctxt' && field) || (keyword[1] === 'msgid' && field && field !== 'context'))
        flush();
      entry ??= fresh();
      field = keyword[1] === 'msgctxt' ? 'context' : keyword[1] === 'msgid' ? 'id' : 'str';
      entry[field] = unquote(keyword[2] ?? '', where);
      return;
    }
    if (line.startsWith('"') && entry && field) {
      entry[field] = (entry[field] ?? '') + unquote(line, where);
      return;
    }
    throw new Error(`${where}: cannot read ${line.slice(0, 40)}`);
  });
  flush();
  const headers: Record<string, string> = {};
  const header = entries[0]?.id === '' && !entries[0].context ? entries.shift() : undefined;
  for (const line of header?.str.split('\n') ?? []) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers, entries };
}

const escape = (text: string) =>
  `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\t/g, '\\t').replace(/\n/g, '\\n')}"`;

/** A PO string: a text of several lines is written one line of it per line, after an empty first. */
const quote = (text: string): string => {
  const pieces = text.split(/(?<=\n)/);
  return pieces.length <= 1 ? escape(text) : ['""', ...pieces.map(escape)].join('\n');
};

export function writePo(po: PoFile): string {
  const header = Object.entries(po.headers)
    .map(([k, v]) => `${k}: ${v}\n`)
    .join('');
  const blocks = [`msgid ""\nmsgstr ${quote(header)}`];
  for (const e of po.entries) {
    const lines = [
      ...e.comments.map((c) => `# ${c}`),
      ...e.notes.map((n) => `#. ${n}`),
      ...(e.references.length ? [`#: ${e.references.join(' ')}`] : []),
      ...(e.flags.length ? [`#, ${e.flags.join(', ')}`] : []),
      ...(e.context !== undefined ? [`msgctxt ${quote(e.context)}`] : []),
      `msgid ${quote(e.id)}`,
      `msgstr ${quote(e.str)}`,
    ];
    blocks.push(lines.join('\n'));
  }
  return `${blocks.join('\n\n')}\n`;
}
