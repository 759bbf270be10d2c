import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';

// Text of any of our five languages on a PDF page (issue 51). pdfkit shapes each piece of text with fontkit (Arabic
// joining forms, Devanagari conjuncts), but it has no font fallback and no bidirectional layout: a line holding
// Arabic and Latin, or Arabic and digits, would come out in the wrong order. So text is cut here into pieces of one
// script each (each set in a Noto font that has it), broken into lines by measuring, and each line's words are
// placed in visual order by the Unicode bidi algorithm's rule L2 (reverse each run at or above a level, highest
// level first). Pieces are written in logical order at their visual places: a screen reader, copy-and-paste and
// text extraction read the words as they were written.

/** Debian's fonts-noto-core (apt): Latin, Arabic and Devanagari, regular and bold. */
export const NOTO_DIR = '/usr/share/fonts/truetype/noto';

type Script = 'latin' | 'arabic' | 'devanagari';
const FONT_FILES: Record<Script, [regular: string, bold: string]> = {
  latin: ['NotoSans-Regular.ttf', 'NotoSans-Bold.ttf'],
  arabic: ['NotoSansArabic-Regular.ttf', 'NotoSansArabic-Bold.ttf'],
  devanagari: ['NotoSansDevanagari-Regular.ttf', 'NotoSansDevanagari-Bold.ttf'],
};
const fontName = (script: Script, bold: boolean) => `${script}-${bold ? 'bold' : 'regular'}`;

/**
 * Each font parsed once for the process: fontkit reads a Noto font's layout tables on first use (0.6 s for
 * NotoSans), and pdfkit takes a parsed font as it is, subsetting it per document.
 */
const parsed = new Map<string, unknown>();
function parsedFont(file: string): unknown {
  let font = parsed.get(file);
  if (!font) {
    font = fontkit.create(readFileSync(`${NOTO_DIR}/${file}`));
    parsed.set(file, font);
  }
  return font;
}

/** A piece of a paragraph, bold or not. */
export interface Run {
  text: string;
  bold?: boolean;
}

export interface Paragraph {
  runs: Run[];
  size: number;
  /** Space after it, in points. */
  after?: number;
}

/** Cut into the page's script: letters of a script, digits (left to right everywhere), anything else. */
type CharClass = Script | 'digit' | 'neutral';
function classOf(char: string): CharClass {
  const c = char.codePointAt(0) ?? 0;
  if ((c >= 0x30 && c <= 0x39) || (c >= 0x660 && c <= 0x669) || (c >= 0x6f0 && c <= 0x6f9)) return 'digit';
  if (
    (c >= 0x600 && c <= 0x6ff) ||
    (c >= 0x750 && c <= 0x77f) ||
    (c >= 0xfb50 && c <= 0xfdff) ||
    (c >= 0xfe70 && c <= 0xfeff)
  )
    return 'arabic';
  if ((c >= 0x900 && c <= 0x97f) || (c >= 0xa8e0 && c <= 0xa8ff)) return 'devanagari';
  if (/\p{L}/u.test(char)) return 'latin';
  return 'neutral';
}

interface Piece {
  text: string;
  font: string;
  /** Right to left (Arabic letters), else left to right. */
  rtl: boolean;
  width: number;
}
interface Word {
  pieces: Piece[];
  width: number;
  rtl: boolean;
}

/** A word cut into pieces of one script each; punctuation goes with the piece before it (or the first one). */
function piecesOf(word: string, bold: boolean): { text: string; script: Script; digits: boolean }[] {
  const out: { text: string; script: Script; digits: boolean; cls: CharClass }[] = [];
  for (const char of word) {
    const cls = classOf(char);
    const last = out.at(-1);
    if (last && (cls === 'neutral' || cls === last.cls)) last.text += char;
    else if (last && last.cls === 'neutral') {
      last.cls = cls;
      last.text += char;
    } else out.push({ text: char, cls, script: 'latin', digits: false });
  }
  for (const piece of out) {
    piece.digits = piece.cls === 'digit';
    // Arabic-Indic digits are in the Arabic font; Western ones, and neutral-only words, in the Latin one.
    piece.script =
      piece.cls === 'arabic' || (piece.cls === 'digit' && /[\u0660-\u0669\u06f0-\u06f9]/.test(piece.text))
        ? 'arabic'
        : piece.cls === 'devanagari'
          ? 'devanagari'
          : 'latin';
  }
  void bold;
  return out;
}

/** A PDF document with our fonts registered, and a layout of paragraphs in one direction. */
export class TextPage {
  readonly doc: PDFKit.PDFDocument;

  constructor(
    options: PDFKit.PDFDocumentOptions,
    readonly rtl: boolean,
  ) {
    this.doc = new PDFDocument({ autoFirstPage: false, ...options });
    for (const [script, [regular, bold]] of Object.entries(FONT_FILES)) {
      // pdfkit takes a parsed fontkit font (PDFFontFactory.open: anything with a `layout`); its types say buffer.
      this.doc.registerFont(fontName(script as Script, false), parsedFont(regular) as Buffer);
      this.doc.registerFont(fontName(script as Script, true), parsedFont(bold) as Buffer);
    }
  }

  private measure(text: string, font: string, size: number): number {
    return this.doc.font(font).fontSize(size).widthOfString(text);
  }

  private words(paragraph: Paragraph): { words: Word[]; breaks: boolean[] } {
    const words: Word[] = [];
    // Whether a space precedes each word (runs may join within a word: 'sesame,' bold then ',').
    const breaks: boolean[] = [];
    let spaceBefore = false;
    for (const run of paragraph.runs) {
      const parts = run.text.replace(/[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g, '').split(/(\s+)/);
      for (const part of parts) {
        if (part === '') continue;
        if (/^\s+$/.test(part)) {
          spaceBefore = true;
          continue;
        }
        const pieces = piecesOf(part, run.bold === true).map((p) => {
          const font = fontName(p.script, run.bold === true);
          return {
            text: p.text,
            font,
            rtl: p.script === 'arabic' && !p.digits,
            width: this.measure(p.text, font, paragraph.size),
          };
        });
        const last = words.at(-1);
        if (last && !spaceBefore && words.length > 0) {
          last.pieces.push(...pieces);
          last.width += pieces.reduce((sum, p) => sum + p.width, 0);
          last.rtl ||= pieces.some((p) => p.rtl);
        } else {
          words.push({
            pieces,
            width: pieces.reduce((sum, p) => sum + p.width, 0),
            rtl: pieces.some((p) => p.rtl),
          });
          breaks.push(spaceBefore);
        }
        spaceBefore = false;
      }
    }
    return { words, breaks };
  }

  /** The paragraph's lines at this width, and its height. */
  layout(paragraph: Paragraph, width: number): { lines: Word[][]; height: number } {
    const { words } = this.words(paragraph);
    const space = this.measure(' ', fontName('latin', false), paragraph.size);
    const lines: Word[][] = [];
    let line: Word[] = [];
    let used = 0;
    for (const word of words) {
      const needed = line.length ? used + space + word.width : word.width;
      if (line.length && needed > width) {
        lines.push(line);
        line = [word];
        used = word.width;
      } else {
        line.push(word);
        used = needed;
      }
    }
    if (line.length) lines.push(line);
    const lineHeight = paragraph.size * 1.45;
    return { lines, height: lines.length * lineHeight + (paragraph.after ?? 0) };
  }

  /** Height the paragraphs take at this width. */
  heightOf(paragraphs: readonly Paragraph[], width: number): number {
    return paragraphs.reduce((sum, p) => sum + this.layout(p, width).height, 0);
  }

  /** Draws the paragraphs from (x, y) in a column `width` wide; returns the y below them. */
  draw(paragraphs: readonly Paragraph[], x: number, y: number, width: number): number {
    for (const paragraph of paragraphs) {
      const { lines } = this.layout(paragraph, width);
      const space = this.measure(' ', fontName('latin', false), paragraph.size);
      const lineHeight = paragraph.size * 1.45;
      for (const line of lines) {
        this.drawLine(line, x, y, width, space, paragraph.size);
        y += lineHeight;
      }
      y += paragraph.after ?? 0;
    }
    return y;
  }

  private drawLine(line: Word[], x: number, y: number, width: number, space: number, size: number) {
    // Embedding levels (rule L2): in a right-to-left paragraph (level 1) Arabic words stay at 1, others go to 2;
    // in a left-to-right one (level 0) Arabic words go to 1.
    const levels = line.map((w) => (this.rtl ? (w.rtl ? 1 : 2) : w.rtl ? 1 : 0));
    const visual = line.map((_, i) => i);
    for (let level = Math.max(...levels); level >= 1; level--) {
      for (let i = 0; i < visual.length;) {
        if (levels[visual[i] as number]! < level) {
          i++;
          continue;
        }
        let j = i;
        while (j < visual.length && levels[visual[j] as number]! >= level) j++;
        visual.splice(i, j - i, ...visual.slice(i, j).reverse());
        i = j;
      }
    }
    const total = line.reduce((sum, w) => sum + w.width, 0) + space * (line.length - 1);
    let at = this.rtl ? x + width - total : x;
    const placed = new Map<number, number>();
    for (const index of visual) {
      placed.set(index, at);
      at += line[index]!.width + space;
    }
    // Written in logical order, each at its visual place; a right-to-left word's pieces from right to left.
    line.forEach((word, index) => {
      let px = placed.get(index) ?? x;
      const pieces = word.rtl ? [...word.pieces].reverse() : word.pieces;
      const starts = pieces.map((piece) => {
        const start = px;
        px += piece.width;
        return start;
      });
      const order = word.rtl ? pieces.map((_, i) => pieces.length - 1 - i) : pieces.map((_, i) => i);
      for (const i of order) {
        const piece = pieces[i]!;
        this.doc.font(piece.font).fontSize(size).text(piece.text, starts[i], y, { lineBreak: false });
      }
    });
  }

  /** The finished document's bytes. */
  finish(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    return new Promise((resolve, reject) => {
      this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
      this.doc.end();
    });
  }
}
