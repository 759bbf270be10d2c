import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';
import { createKitchenWithOwner, placeOrderAs } from './db.js';
import { expect, test } from './fixtures.js';

interface Report {
  finalDisplayedUrl: string;
  categories: { accessibility: { score: number } };
  audits: Record<string, { score: number | null; title: string; scoreDisplayMode: string }>;
}

/** Lighthouse's own run (its mobile settings: a phone-sized screen, touch) of `url`, with these request headers. */
async function lighthouse(url: string, headers: Record<string, string>): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'mkt-lighthouse-'));
  const headersFile = join(dir, 'headers.json');
  writeFileSync(headersFile, JSON.stringify(headers));
  const out = join(dir, 'report.json');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        'node_modules/lighthouse/cli/index.js',
        url,
        '--output=json',
        `--output-path=${out}`,
        '--only-categories=accessibility',
        '--quiet',
        `--extra-headers=${headersFile}`,
        `--chrome-flags=${[...CHROMIUM_ARGS, '--headless=new'].join(' ')}`,
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lighthouse exited ${code}`))));
  });
  return JSON.parse(readFileSync(out, 'utf8')) as Report;
}

test('the kitchen’s orders page, signed in, scores 100 for accessibility in Lighthouse on a phone', async ({
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const { kitchen, items, cookie } = await createKitchenWithOwner(`Lighthouse ${randomUUID().slice(0, 8)}`, {
    dishes: [{ item: 'Dal' }, { item: 'Rice' }],
  });
  // An order on the page, so its card and its buttons are judged too.
  await placeOrderAs(kitchen.uid, [items[0]!.id, items[1]!.id]);
  const report = await lighthouse(`${baseURL}/KitchenOrders`, { Cookie: `kitchen_session=${cookie.value}` });
  // Signed in: the page was not sent to /AdminSignIn.
  expect(report.finalDisplayedUrl).toBe(`${baseURL}/KitchenOrders`);
  await testInfo.attach('lighthouse /KitchenOrders', {
    body: JSON.stringify(report.categories),
    contentType: 'application/json',
  });
  const failing = Object.entries(report.audits)
    .filter(([, audit]) => audit.scoreDisplayMode === 'binary' && audit.score === 0)
    .map(([id, audit]) => `${id}: ${audit.title}`);
  expect(failing).toEqual([]);
  expect(Math.round(report.categories.accessibility.score * 100)).toBe(100);
});
