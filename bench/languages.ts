import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCALES } from '../src/shared/i18n/locales.js';
import { startApp, type BenchRow } from './lib.js';
import { firstViewWeight } from './page-weight.js';

/**
 * Issue 34: what a first view costs in each language against English, in one run: the script (the same files in
 * every language: the messages are not script), the page's HTML (it carries the messages its render used) and the
 * language's catalogue, fetched once the page hydrates. As sent (brotli), from a phone-sized Chromium whose
 * `Accept-Language` is the language.
 */
export async function languageWeight(): Promise<BenchRow[]> {
  const app = await startApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'mkt-bench-lang-')), SEED_DEMO: 'true' });
  const rows: BenchRow[] = [];
  try {
    const kitchens = (await (await fetch(`${app.url}/api/kitchens`)).json()) as { uid: string }[];
    const pages = [
      ['/', '/'],
      ['/KitchenMenu/{id}', `/KitchenMenu/${kitchens[0]?.uid ?? ''}`],
    ] as const;
    for (const [label, path] of pages) {
      const url = `http://localhost:${app.port}${path}`;
      const english = await firstViewWeight(url, 'en-US');
      for (const locale of LOCALES) {
        const weight = locale === 'en' ? english : await firstViewWeight(url, locale);
        const kib = (bytes: number) => bytes / 1024;
        console.log(
          `  ${label} in ${locale}: script ${kib(weight.js).toFixed(1)} KiB, HTML ${kib(weight.html).toFixed(1)} KiB, catalogue ${kib(weight.messages).toFixed(1)} KiB (English: ${kib(english.js).toFixed(1)} / ${kib(english.html).toFixed(1)} / ${kib(english.messages).toFixed(1)})`,
        );
        rows.push({
          measure: `${label} in ${locale}: first view's script + HTML (brotli), against English`,
          engine: 'web',
          value: kib(weight.js + weight.html),
          unit: 'KiB',
          baseline: kib(english.js + english.html),
          target: '<= English + 5 KiB',
          ok: weight.js + weight.html <= english.js + english.html + 5 * 1024,
        });
        rows.push({
          measure: `${label} in ${locale}: the language's catalogue, after hydration (brotli)`,
          engine: 'web',
          value: kib(weight.messages),
          unit: 'KiB',
          baseline: kib(english.messages),
        });
      }
    }
  } finally {
    await app.stop();
  }
  return rows;
}
