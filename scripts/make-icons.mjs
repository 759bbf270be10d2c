// Makes the web app's install icons (public/icons/*.png) from public/favicon.svg: plain ones at 192 and 512 px and
// a maskable 512 px one whose drawing sits inside the central safe zone (launchers crop it to a circle or a
// squircle). Run once after changing the favicon: `node scripts/make-icons.mjs`; the PNGs are committed.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

const root = join(import.meta.dirname, '..');
const svg = readFileSync(join(root, 'public/favicon.svg'));
const out = join(root, 'public/icons');
mkdirSync(out, { recursive: true });

for (const size of [192, 512])
  await sharp(svg, { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(join(out, `icon-${size}.png`));

// Maskable: the brand colour to the edges, the drawing at 60 % in the middle.
const inner = await sharp(svg, { density: (72 * 308) / 32 })
  .resize(308, 308)
  .png()
  .toBuffer();
await sharp({ create: { width: 512, height: 512, channels: 4, background: '#e8590c' } })
  .composite([{ input: inner, gravity: 'center' }])
  .png({ compressionLevel: 9 })
  .toFile(join(out, 'maskable-512.png'));
console.log('icons written to public/icons');
