import { textDirection } from '../../shared/i18n/locales.js';
import type { Translator } from '../../shared/i18n/translator.js';
import { TextPage, type Run } from './pdf-text.js';

const MM = 72 / 25.4;

/** A list on A4: a title, a few lines under it, then its rows. */
export interface ListDocument {
  title: string;
  subtitle: readonly string[];
  /** Each row: its runs (bold where it matters). */
  rows: readonly Run[][];
}

/** A list (packing list, prep sheet) as an A4 PDF, pages added as it runs long. */
export function renderList(list: ListDocument, tr: Translator): Promise<Buffer> {
  const page = new TextPage(
    { info: { Title: list.title }, lang: tr.locale, displayTitle: true },
    textDirection(tr.locale) === 'rtl',
  );
  const margin = 15 * MM;
  const [width, height] = [210 * MM, 297 * MM];
  const column = width - 2 * margin;
  page.doc.addPage({ size: 'A4', margin: 0 });
  let y = page.draw(
    [
      { runs: [{ text: list.title, bold: true }], size: 16, after: 4 },
      ...list.subtitle.map((line) => ({ runs: [{ text: line }], size: 10 })),
      { runs: [], size: 6 },
    ],
    margin,
    margin,
    column,
  );
  for (const row of list.rows) {
    const paragraph = { runs: row, size: 10, after: 3 };
    if (y + page.heightOf([paragraph], column) > height - margin) {
      page.doc.addPage({ size: 'A4', margin: 0 });
      y = margin;
    }
    y = page.draw([paragraph], margin, y, column);
  }
  return page.finish();
}
