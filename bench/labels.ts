import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCatalogues } from '../src/server/i18n/catalogues.js';
import { allergenSummary, renderLabels, type LabelOrder } from '../src/server/labels/label-documents.js';
import { renderList } from '../src/server/lib/pdf-list.js';
import type { BenchRow } from './lib.js';
import { root } from './lib.js';

const ROUNDS = 15;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/**
 * Issue 51: a 40-dish prep sheet as a PDF (fonts embedded, every allergen in bold) against a one-dish label, in the
 * same run, in rounds (each in turn, so the machine's load falls on both alike), in English and in Arabic.
 */
export async function labelsBench(): Promise<BenchRow[]> {
  const catalogues = createCatalogues(join(root, 'locales'), 'USD');
  const rows: BenchRow[] = [];
  const dish = {
    item: 'Sesame noodles',
    contains: ['wheat', 'sesame', 'soya'],
    mayContain: ['peanuts'],
    declared: true,
    ingredients: 'Wheat noodles, sesame paste, soy sauce, spring onion, chilli oil',
    keepsDays: 3,
    reheating: 'Serve cold or warm gently for 2 minutes',
  };
  const order: LabelOrder = {
    kitchenName: 'Amal’s Kitchen',
    forWhom: 'Sam Lee',
    madeOn: '2026-11-28',
    dishes: [dish],
  };
  for (const locale of ['en', 'ar'] as const) {
    const tr = catalogues.translator(locale);
    const sheet = () =>
      renderList(
        {
          title: tr.t('Prep sheet'),
          subtitle: ['Amal’s Kitchen', 'Tomorrow 6:00–6:30 PM', '40 orders'],
          rows: Array.from({ length: 40 }, (_, i) => [
            { text: `${dish.item} ${i + 1} × ${(i % 7) + 1}`, bold: true },
            ...allergenSummary(dish, tr),
          ]),
        },
        tr,
      );
    const label = () => renderLabels(order, '62mm', tr);
    await sheet(); // warm up: fonts read and parsed once
    await label();
    const sheets: number[] = [];
    const labels: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let at = performance.now();
      await label();
      labels.push(performance.now() - at);
      at = performance.now();
      await sheet();
      sheets.push(performance.now() - at);
    }
    const sheetMs = median(sheets);
    const labelMs = median(labels);
    console.log(
      `  ${locale}: prep sheet of 40 dishes ${sheetMs.toFixed(1)} ms, one-dish label ${labelMs.toFixed(1)} ms (medians of ${ROUNDS})`,
    );
    rows.push({
      measure: `prep sheet, 40 dishes, PDF (${locale}), ms`,
      engine: 'pdfkit',
      value: sheetMs,
      unit: 'ms',
      baseline: labelMs,
      target: '< 300 ms',
      ok: sheetMs < 300,
    });
  }
  return rows;
}
