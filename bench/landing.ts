// The landing page a page at a time (issue 35) at 50, 10,000 and 100,000 kitchens on PostgreSQL, in one run: `/` as
// HTML (its bytes, raw and compressed as a browser asks, and its p99), the kitchens API (the live first page and a
// page further on by cursor, newest and nearest first), beside one kitchen read by id on the same server, and the
// unpaged list of every kitchen (what the landing page sent before) where it can still be read.
// Alone: `npm run build && BENCH_ONLY=landing node --import tsx bench/run.ts`.
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { openPostgres } from '../src/server/db/database.js';
import { createPgDatabase } from '../src/server/test/test-database.js';
import { load, percentile, startApp, type BenchRow } from './lib.js';
import { seedCatalogue } from './search.js';

const SIZES = process.env.BENCH_QUICK === '1' ? [50, 10_000] : [50, 10_000, 100_000];
/** The first view's compressed HTML may weigh this much at most (the issue's target). */
const MAX_HTML_BYTES = 60 * 1024;
/** The unpaged list is read only up to this many kitchens (at 100,000 it is tens of megabytes per answer). */
const MAX_UNPAGED = 10_000;

async function latency(
  url: string,
  extra: { requests?: { path: string }[]; headers?: Record<string, string> } = {},
) {
  const options = { url, connections: 10, duration: 5, ...extra };
  await load({ ...options, duration: 1 }); // warm up
  const result = await load(options);
  if (result.non2xx || result.errors)
    console.log(`    (${url}: ${result.non2xx} non-2xx, ${result.errors} errors)`);
  return result;
}

/** `/` as a browser asks for it: its bytes on the wire with gzip accepted, and without compression. */
async function htmlBytes(url: string) {
  // node:http rather than fetch, which would decompress the body before it could be weighed.
  const { body, encoding } = await new Promise<{ body: Buffer; encoding: string }>((resolve, reject) => {
    get(`${url}/`, { headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ body: Buffer.concat(chunks), encoding: String(res.headers['content-encoding'] ?? 'none') }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
  const raw = encoding === 'gzip' ? gunzipSync(body) : encoding === 'br' ? brotliDecompressSync(body) : body;
  return { compressed: body.length, raw: raw.length, encoding, html: raw.toString('utf8') };
}

/** Walks up to 20 pages of a list one after another (each cursor new, so never cached), timing each page. */
async function walk(url: string, query: string): Promise<number[]> {
  const times: number[] = [];
  let cursor = '';
  for (let n = 0; n < 20; n++) {
    const started = performance.now();
    const res = await fetch(`${url}/api/kitchens/page?limit=24${query}${cursor ? `&cursor=${cursor}` : ''}`);
    const page = (await res.json()) as { next: string | null };
    times.push(performance.now() - started);
    if (!page.next) break;
    cursor = page.next;
  }
  return times;
}

async function measure(kitchens: number): Promise<BenchRow[]> {
  const engine = 'postgres';
  const seeded = Date.now();
  const created = await createPgDatabase();
  // Seeding 100,000 kitchens (their trigram indexes) takes longer than a request's query may.
  const db = await openPostgres(created.url, { queryTimeoutMs: 600_000 });
  const someKitchen = await seedCatalogue(db, kitchens, 1);
  await db.close();
  const label = `${kitchens.toLocaleString('en-US')} kitchens`;
  console.log(`  seeded ${label} in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
  const app = await startApp({ DATABASE_URL: created.url });
  try {
    const one = await latency(`${app.url}/api/kitchens/${someKitchen}`);
    const html = await htmlBytes(app.url);
    const cards = html.html.split('data-testid="kitchen-card"').length - 1;
    const page = await latency(`${app.url}/`, {
      headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' },
    });
    const firstPage = await latency(`${app.url}/api/kitchens/first-page`);
    const next = async (query: string) =>
      (
        (await (await fetch(`${app.url}/api/kitchens/page?limit=24${query}`)).json()) as {
          next: string | null;
        }
      ).next ?? '';
    const [newest, nearest] = [await next(''), await next('&near=51.5,-0.12')];
    const paged = await latency(app.url, {
      requests: [
        { path: `/api/kitchens/page?limit=24&cursor=${newest}` },
        { path: `/api/kitchens/page?limit=24&near=51.5,-0.12&cursor=${nearest}` },
      ],
    });
    // Uncached: every page of a walk is a cursor nobody asked for yet (the answers above came from the cache).
    const walked = [...(await walk(app.url, '')), ...(await walk(app.url, '&near=51.52,-0.13'))];
    const unpaged = kitchens <= MAX_UNPAGED ? await latency(`${app.url}/api/kitchens`) : undefined;
    const rows: BenchRow[] = [
      {
        measure: `landing: / HTML, ${html.encoding} bytes (${cards} cards), ${label}`,
        engine,
        value: html.compressed,
        unit: `B (${html.raw} B raw)`,
        target: '<= 60 KB compressed',
        ok: html.compressed <= MAX_HTML_BYTES,
      },
      {
        measure: `landing: / HTML p50/p99, ${label}`,
        engine,
        value: page.p50,
        unit: `ms / ${page.p99} ms`,
        target: 'p99 <= 50 ms',
        ok: page.p99 <= 50,
      },
      {
        measure: `landing: first page API p50/p99, ${label}`,
        engine,
        value: firstPage.p50,
        unit: `ms / ${firstPage.p99} ms`,
        target: 'p99 <= 50 ms',
        ok: firstPage.p99 <= 50,
      },
      {
        measure: `landing: a later page by cursor p50/p99, ${label}`,
        engine,
        value: paged.p50,
        unit: `ms / ${paged.p99} ms`,
        target: 'p99 <= 50 ms',
        ok: paged.p99 <= 50,
      },
      {
        measure: `landing: a later page, first ask (uncached) p50/p99, ${label}`,
        engine,
        value: percentile(walked, 50),
        unit: `ms / ${percentile(walked, 99).toFixed(0)} ms (${walked.length} pages)`,
        target: 'p99 <= 50 ms',
        ok: percentile(walked, 99) <= 50,
      },
      {
        measure: `baseline: one kitchen by id p50/p99, ${label}`,
        engine,
        value: one.p50,
        unit: `ms / ${one.p99} ms`,
      },
    ];
    if (unpaged)
      rows.push({
        measure: `before: every kitchen unpaged p50/p99, ${label}`,
        engine,
        value: unpaged.p50,
        unit: `ms / ${unpaged.p99} ms`,
      });
    return rows;
  } finally {
    await app.stop();
    await created.drop();
  }
}

export async function landingBench(record: (row: BenchRow) => void): Promise<void> {
  console.log('\n== landing page a page at a time (10 connections)');
  for (const kitchens of SIZES) for (const row of await measure(kitchens)) record(row);
}
