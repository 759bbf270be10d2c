// The script budget of a first view (issue 32): the JavaScript that `/` and a kitchen's menu load before anyone
// touches them, as served (the .br copies scripts/compress-web.mjs writes; a file under 1 KiB is sent as it is).
// Both pages are server-rendered from the built index.html, whose one script (src/web/boot.ts) loads the app's module
// files named on its tag (vite.config.ts, paintFirst); those are every file the app imports before it renders, so
// their sum is the first view's script. Anything loaded later (a dialog, the toasts, another page) is a dynamic
// import, not on that list. Run after the build (`npm test` runs it after the end-to-end tests, which build first):
// prints the figure and fails above the limit.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The target. */
const TARGET_KIB = 110;
/**
 * What the build must not exceed. The target was met from 2026-11-26 (109.8 KiB, the app's own router, ADR 12, and a
 * first view's modules in one file, vite.config.ts FIRST_VIEW_FILE) to 2026-11-29 10:10 (109.7). The menu's allergen
 * information before purchase (issue 51: names in five languages, the customer's marks, 'Hide dishes with my
 * allergens') and the permit number on the menu (issue 50) then took it to 137.4; their dialogs and their cook-side
 * hooks moved out of the first view (lazy, or modules of their own) brought it back to 111.9. The limit is 112 until
 * the rest is found: the target stays 110 and is printed as not met.
 */
const LIMIT_KIB = Number(process.env.SCRIPT_BUDGET_KIB ?? 112);

const dist = new URL('../dist/web/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const boot = /<script[^>]* src="(\/assets\/[^"]+\.js)"[^>]* id="app-boot"/.exec(html)?.[1];
const modules = /id="app-boot" data-modules="([^"]+)"/.exec(html)?.[1]?.split(' ');
if (!boot || !modules?.length) {
  console.error(
    'check-budget: no boot script with its data-modules in dist/web/index.html (run the build first)',
  );
  process.exit(1);
}

/** Bytes as sent: the brotli copy when there is one (what browsers get), else the file. */
const served = (path) => {
  const file = join(dist, path);
  return existsSync(`${file}.br`) ? statSync(`${file}.br`).size : statSync(file).size;
};

const files = [boot, ...modules].map((path) => ({ path, bytes: served(path) }));
const total = files.reduce((sum, f) => sum + f.bytes, 0) / 1024;
for (const f of [...files].sort((a, b) => b.bytes - a.bytes))
  console.log(`${(f.bytes / 1024).toFixed(1).padStart(7)} KiB  ${f.path}`);
console.log(
  `First view's script (/ and /KitchenMenu/{id}, brotli as served): ${total.toFixed(1)} KiB in ${files.length} files; ` +
    `limit ${LIMIT_KIB} KiB, target ${TARGET_KIB} KiB (${total <= TARGET_KIB ? 'met' : 'not met'})`,
);
if (total > LIMIT_KIB) {
  console.error(`check-budget: ${total.toFixed(1)} KiB is over the limit of ${LIMIT_KIB} KiB`);
  process.exit(1);
}
