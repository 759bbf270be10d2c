import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allergenName } from '../../shared/allergen-set.js';
import { createCatalogues } from '../i18n/catalogues.js';
import { projectRoot } from '../lib/project-root.js';
import { readPdf } from '../test/read-pdf.js';
import { renderList } from '../lib/pdf-list.js';
import { allergenSummary, renderLabels, type LabelOrder } from './label-documents.js';

const catalogues = createCatalogues(join(projectRoot(), 'locales'), 'USD');

const order: LabelOrder = {
  kitchenName: 'Amal’s Kitchen',
  permitNumber: 'PR0123456',
  forWhom: 'Sam Lee',
  madeOn: '2026-11-28',
  dishes: [
    {
      item: 'Sesame noodles',
      contains: ['wheat', 'sesame', 'soya'],
      mayContain: ['peanuts'],
      declared: true,
      ingredients: 'Wheat noodles, sesame paste, soy sauce, spring onion',
      keepsDays: 3,
      reheating: 'Serve cold',
    },
  ],
};

describe('labels and prep sheets as PDF', () => {
  it('a label in English: allergens in bold, may contain, the use-by date, the kitchen and the customer', async () => {
    const pdf = await readPdf(await renderLabels(order, '62mm', catalogues.translator('en')));
    expect(pdf.sizes[0]?.[0]).toBeCloseTo((62 * 72) / 25.4, 0);
    expect(pdf.text).toContain('Sesame noodles');
    expect(pdf.text).toContain('Amal’s Kitchen');
    expect(pdf.text).toContain('Permit PR0123456');
    expect(pdf.text).toContain('Use by December 1, 2026');
    expect(pdf.text).toContain('Made November 28, 2026');
    expect(pdf.text).toContain('Sam Lee');
    for (const allergen of ['sesame', 'soya', 'wheat', 'peanuts']) {
      const bold = pdf.items.filter((i) => i.text.toLowerCase().startsWith(allergen) && /Bold/.test(i.font));
      expect(bold.length, `${allergen} in bold`).toBeGreaterThan(0);
    }
    expect(pdf.items.find((i) => i.text.includes('spring onion'))?.font).toMatch(/NotoSans-Regular/);
    expect(pdf.text).toMatch(/May contain: peanuts/);
  });

  it('a label in Arabic: the allergens in Arabic, bold, in an Arabic font, and the use-by date', async () => {
    const tr = catalogues.translator('ar');
    const pdf = await readPdf(await renderLabels(order, '4x6', tr));
    expect(pdf.sizes[0]).toEqual([288, 432]);
    expect(pdf.text).toContain('PR0123456');
    for (const allergen of ['sesame', 'soya', 'wheat', 'peanuts'] as const) {
      const name = allergenName(allergen, 'ar');
      const bold = pdf.items.filter(
        (i) => i.text.includes(name.split(' ')[0]!) && /Arabic-Bold/.test(i.font),
      );
      expect(bold.length, `${name} in bold`).toBeGreaterThan(0);
    }
    // Right to left: the first allergen named is the rightmost on its line.
    const at = (text: string) => pdf.items.find((i) => i.text === text);
    expect(at('سمسم')?.y).toBe(at('قمح')?.y);
    expect(at('سمسم')!.x).toBeGreaterThan(at('صويا')!.x);
    expect(at('صويا')!.x).toBeGreaterThan(at('قمح')!.x);
    // The use-by date with Western digits and the month in Arabic, read in logical order: '1 ديسمبر 2026'.
    expect(pdf.text).toMatch(/1 ديسمبر 2026/);
    expect(pdf.text).toContain('Sesame noodles');
  });

  it('a prep sheet in English and Arabic: every dish with its allergens in bold', async () => {
    for (const locale of ['en', 'ar'] as const) {
      const tr = catalogues.translator(locale);
      const dish = order.dishes[0]!;
      const pdf = await readPdf(
        await renderList(
          {
            title: tr.t('Prep sheet'),
            subtitle: ['Tomorrow 6:00–6:30 PM'],
            rows: [[{ text: `${dish.item} × 7`, bold: true }, ...allergenSummary(dish, tr)]],
          },
          tr,
        ),
      );
      expect(pdf.text).toContain('Sesame noodles');
      expect(pdf.text).toContain('7');
      const sesame = allergenName('sesame', locale);
      expect(
        pdf.items.some((i) => i.text.includes(sesame) && /Bold/.test(i.font)),
        locale,
      ).toBe(true);
    }
  });
});
