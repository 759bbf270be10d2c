// Bytes of pictures a phone loads for /KitchenMenu/{id} with 30 dishes: uploaded pictures (WebP sizes chosen by
// srcset) against the same photos given as links to their original files (served by a local static server, as
// a cook's photo host would). Run alone: `node --import tsx bench/picture-weight.ts`.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import sharp from 'sharp';
import { buildApp } from '../src/server/app.js';
import { createSession } from '../src/server/identity/sessions.js';
import { upsertUser } from '../src/server/identity/users.js';
import { loadConfig } from '../src/server/lib/config.js';
import { openPglite, type Database } from '../src/server/db/database.js';
import { kitchens, menuItems } from '../src/server/db/schema.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/chromium.js';
import { allocatePort, root, type BenchRow } from './lib.js';

const DISHES = 30;
const DISTINCT_PHOTOS = 6;

/** A phone-camera-like photo (4032 × 3024, JPEG quality 90) with fine detail, so it compresses as a photo does. */
async function phonePhoto(seed: number): Promise<Buffer> {
  const [w, h] = [4032, 3024];
  const small = Buffer.alloc(504 * 378 * 3);
  for (let i = 0; i < small.length; i++) small[i] = (i * (seed + 7) + ((i * 2654435761) >>> 24)) % 256;
  return sharp(small, { raw: { width: 504, height: 378, channels: 3 } })
    .resize(w, h, { kernel: 'cubic' })
    .blur(1.2)
    .jpeg({ quality: 90 })
    .toBuffer();
}

function serveOriginals(photos: Buffer[]): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const n = Number(/photo-(\d+)\.jpg/.exec(request.url ?? '')?.[1] ?? -1);
    const photo = photos[n % photos.length];
    if (!photo) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length }).end(photo);
  });
  const port = allocatePort();
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${port}` })),
  );
}

async function kitchenWithSession(database: Database, name: string) {
  const owner = await upsertUser(database.db, {
    issuer: 'urn:bench',
    subject: name,
    email: `${name}@bench.test`,
    displayName: name,
    photoUrl: null,
  });
  const token = await createSession(database.db, owner.id, 'kitchen');
  return { uid: owner.id, cookie: `kitchen_session=${token}` };
}

/** Opens the menu on a phone-sized page, scrolls to its end (pictures load lazily), and sums picture bytes. */
async function pictureBytes(url: string, deviceScaleFactor: number) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    let bytes = 0;
    let count = 0;
    const pending: Promise<void>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'image' || request.url().includes('/demo/')) return;
      count++;
      pending.push(request.sizes().then((s) => void (bytes += s.responseBodySize)));
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page
      .getByTestId('menu-item')
      .nth(DISHES - 1)
      .waitFor();
    for (let y = 0; y < 40; y++) {
      await page.mouse.wheel(0, 800);
      await page.waitForLoadState('networkidle');
    }
    await Promise.all(pending);
    return { bytes, count };
  } finally {
    await browser.close();
  }
}

export async function pictureWeight(): Promise<BenchRow[]> {
  const photos = await Promise.all(Array.from({ length: DISTINCT_PHOTOS }, (_, i) => phonePhoto(i)));
  const originals = await serveOriginals(photos);
  const database = await openPglite('memory://');
  const port = allocatePort();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', GEOCODER: 'off', PORT: String(port) });
  const app = await buildApp({ config, database, webDir: join(root, 'dist', 'web') });
  try {
    const base = await app.listen({ port, host: '127.0.0.1' });
    const uploaded = await kitchenWithSession(database, 'uploads');
    const linked = await kitchenWithSession(database, 'links');
    const kitchenRow = (uid: string, name: string) => ({
      ownerId: uid,
      name,
      category: 'Bench',
      address: '1 Bench Street',
      imageLink: 'https://img.example/k.png',
      ownerName: name,
      ownerEmail: `${name}@bench.test`,
    });
    await database.db
      .insert(kitchens)
      .values([kitchenRow(uploaded.uid, 'Uploads'), kitchenRow(linked.uid, 'Links')]);
    for (let i = 0; i < DISHES; i++) {
      const photo = photos[i % DISTINCT_PHOTOS] ?? Buffer.alloc(0);
      const upload = await app.inject({
        method: 'POST',
        url: '/api/kitchen/images',
        headers: { cookie: uploaded.cookie, 'content-type': 'image/jpeg' },
        payload: photo,
      });
      const dish = { priceCents: 900, wait: '20 min', item: `Dish ${i}` };
      await database.db.insert(menuItems).values([
        { ...dish, kitchenId: uploaded.uid, imageId: upload.json<{ id: string }>().id },
        // A link to our test server's loopback address, which the API refuses for cooks: written directly.
        { ...dish, kitchenId: linked.uid, imageLink: `${originals.url}/photo-${i}.jpg` },
      ]);
    }
    const rows: BenchRow[] = [];
    for (const dpr of [1, 3]) {
      const links = await pictureBytes(`${base}/KitchenMenu/${linked.uid}`, dpr);
      const uploads = await pictureBytes(`${base}/KitchenMenu/${uploaded.uid}`, dpr);
      const kib = (n: number) => Math.round(n / 102.4) / 10;
      console.log(
        `390x844 @${dpr}x: original links ${kib(links.bytes)} KiB in ${links.count} pictures, ` +
          `uploads ${kib(uploads.bytes)} KiB in ${uploads.count}`,
      );
      rows.push(
        {
          measure: `/KitchenMenu/{id} 30 dishes, 390x844 @${dpr}x: original-size links`,
          engine: 'web',
          value: kib(links.bytes),
          unit: 'KiB',
        },
        {
          measure: `/KitchenMenu/{id} 30 dishes, 390x844 @${dpr}x: uploaded pictures`,
          engine: 'web',
          value: kib(uploads.bytes),
          unit: 'KiB',
          baseline: kib(links.bytes),
          ok: uploads.bytes < links.bytes,
        },
      );
    }
    return rows;
  } finally {
    await app.close();
    await database.close();
    originals.server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await pictureWeight());
