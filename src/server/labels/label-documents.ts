import { allergenName, ALLERGENS, isAllergen } from '../../shared/allergen-set.js';
import { textDirection } from '../../shared/i18n/locales.js';
import type { Translator } from '../../shared/i18n/translator.js';
import type { LabelSize } from '../../shared/labels.js';
import { TextPage, type Paragraph, type Run } from '../lib/pdf-text.js';

const MM = 72 / 25.4;

/** One dish of an order, as its label shows it: what was declared when the order was placed. */
export interface LabelDish {
  item: string;
  /** Null: declared nothing (an order older than declarations). */
  contains: readonly string[] | null;
  mayContain: readonly string[] | null;
  declared: boolean;
  ingredients: string;
  keepsDays: number | null;
  reheating: string;
}

export interface LabelOrder {
  kitchenName: string;
  /** The kitchen's permit number, where the rules of its place ask for one (ADR 19); null where none is held. */
  permitNumber?: string | null;
  /** The customer's name, or else the order's number. */
  forWhom: string;
  /** The kitchen's day it is made (YYYY-MM-DD). */
  madeOn: string;
  dishes: readonly LabelDish[];
}

/** A day (YYYY-MM-DD) written for a label: '28 November 2026' (Western digits in Arabic too, as on packaging). */
function day(date: string, tr: Translator): string {
  const at = new Date(`${date}T12:00:00Z`);
  return new Intl.DateTimeFormat(`${tr.intl}-u-nu-latn`, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Each allergen's name bold, separated by commas. */
function allergenRuns(allergens: readonly string[], tr: Translator): Run[] {
  return allergens.flatMap((a, i) => [
    ...(i > 0 ? [{ text: tr.t(', ') }] : []),
    { text: allergenName(a, tr.locale), bold: true },
  ]);
}

/** The ingredients with the names of the allergens it contains in bold (as food law asks: emphasised in the list). */
function ingredientRuns(ingredients: string, contains: readonly string[], tr: Translator): Run[] {
  const names = contains.flatMap((a) =>
    isAllergen(a) ? [...new Set([allergenName(a, tr.locale), allergenName(a, 'en')])] : [a],
  );
  if (!names.length) return [{ text: ingredients }];
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(${escaped.join('|')})`, 'giu');
  return ingredients
    .split(pattern)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, bold: names.some((n) => n.toLowerCase() === part.toLowerCase()) }));
}

/** The paragraphs of one dish's label. */
export function labelParagraphs(order: LabelOrder, dish: LabelDish, tr: Translator, scale = 1): Paragraph[] {
  const s = (n: number) => n * scale;
  const contains = ALLERGENS.filter((a) => dish.contains?.includes(a));
  const mayContain = ALLERGENS.filter((a) => dish.mayContain?.includes(a));
  const paragraphs: Paragraph[] = [
    { runs: [{ text: dish.item, bold: true }], size: s(12), after: s(1) },
    {
      runs: [
        {
          text: order.permitNumber
            ? `${order.kitchenName} · ${tr.t('Permit {number}', { number: order.permitNumber })}`
            : order.kitchenName,
        },
      ],
      size: s(8),
      after: s(4),
    },
  ];
  if (dish.ingredients)
    paragraphs.push({
      runs: [
        { text: `${tr.t('Ingredients')}${tr.t(': ')}`, bold: true },
        ...ingredientRuns(dish.ingredients, contains, tr),
      ],
      size: s(8),
      after: s(2),
    });
  if (!dish.declared)
    paragraphs.push({ runs: [{ text: tr.t('Allergens not declared'), bold: true }], size: s(9) });
  if (contains.length)
    paragraphs.push({
      runs: [{ text: `${tr.t('Contains')}${tr.t(': ')}` }, ...allergenRuns(contains, tr)],
      size: s(9),
    });
  if (mayContain.length)
    paragraphs.push({
      runs: [{ text: `${tr.t('May contain')}${tr.t(': ')}` }, ...allergenRuns(mayContain, tr)],
      size: s(9),
    });
  paragraphs.push({
    runs: [{ text: tr.t('Made {date}', { date: day(order.madeOn, tr) }) }],
    size: s(8),
    after: 0,
  });
  if (dish.keepsDays !== null)
    paragraphs.push({
      runs: [
        { text: tr.t('Use by {date}', { date: day(addDays(order.madeOn, dish.keepsDays), tr) }), bold: true },
      ],
      size: s(9),
    });
  if (dish.reheating)
    paragraphs.push({
      runs: [{ text: `${tr.t('Reheating')}${tr.t(': ')}`, bold: true }, { text: dish.reheating }],
      size: s(8),
    });
  paragraphs.push({ runs: [{ text: tr.t('For {name}', { name: order.forWhom }) }], size: s(8) });
  return paragraphs;
}

/** The largest scale (down to half size) at which the paragraphs fit the box. */
function fitted(page: TextPage, make: (scale: number) => Paragraph[], width: number, height: number) {
  for (let scale = 1; scale > 0.5; scale -= 0.1) {
    const paragraphs = make(scale);
    if (page.heightOf(paragraphs, width) <= height) return paragraphs;
  }
  return make(0.5);
}

/** One label per dish of the order, as a PDF for `size`. */
export function renderLabels(order: LabelOrder, size: LabelSize, tr: Translator): Promise<Buffer> {
  const page = new TextPage(
    { info: { Title: tr.t('Labels'), Author: order.kitchenName }, lang: tr.locale, displayTitle: true },
    textDirection(tr.locale) === 'rtl',
  );
  const margin = size === '62mm' ? 3 * MM : 6 * MM;
  if (size === '62mm') {
    // Continuous roll: each label as long as its text.
    const width = 62 * MM;
    for (const dish of order.dishes) {
      const paragraphs = labelParagraphs(order, dish, tr);
      const height = page.heightOf(paragraphs, width - 2 * margin) + 2 * margin;
      page.doc.addPage({ size: [width, height], margin: 0 });
      page.draw(paragraphs, margin, margin, width - 2 * margin);
    }
  } else if (size === '4x6') {
    const [width, height] = [4 * 72, 6 * 72];
    for (const dish of order.dishes) {
      page.doc.addPage({ size: [width, height], margin: 0 });
      const paragraphs = fitted(
        page,
        (k) => labelParagraphs(order, dish, tr, 1.6 * k),
        width - 2 * margin,
        height - 2 * margin,
      );
      page.draw(paragraphs, margin, margin, width - 2 * margin);
    }
  } else {
    // A4 sheets of 2 × 4 labels (105 × 74 mm, the common die-cut sheet).
    const [cols, rows] = [2, 4];
    const [cellW, cellH] = [(210 * MM) / cols, (297 * MM) / rows];
    order.dishes.forEach((dish, i) => {
      if (i % (cols * rows) === 0) page.doc.addPage({ size: 'A4', margin: 0 });
      const cell = i % (cols * rows);
      const [cx, cy] = [(cell % cols) * cellW, Math.floor(cell / cols) * cellH];
      const paragraphs = fitted(
        page,
        (k) => labelParagraphs(order, dish, tr, k),
        cellW - 2 * margin,
        cellH - 2 * margin,
      );
      page.draw(paragraphs, cx + margin, cy + margin, cellW - 2 * margin);
    });
  }
  return page.finish();
}

/** The allergens a line holds, as runs for a list: ' — Contains: sesame; May contain: peanuts'. */
export function allergenSummary(
  dish: Pick<LabelDish, 'contains' | 'mayContain' | 'declared'>,
  tr: Translator,
): Run[] {
  if (!dish.declared) return [{ text: ` — ${tr.t('Allergens not declared')}`, bold: true }];
  const contains = ALLERGENS.filter((a) => dish.contains?.includes(a));
  const mayContain = ALLERGENS.filter((a) => dish.mayContain?.includes(a));
  return [
    ...(contains.length
      ? [{ text: ` — ${tr.t('Contains')}${tr.t(': ')}` }, ...allergenRuns(contains, tr)]
      : []),
    ...(mayContain.length
      ? [{ text: ` — ${tr.t('May contain')}${tr.t(': ')}` }, ...allergenRuns(mayContain, tr)]
      : []),
  ];
}
