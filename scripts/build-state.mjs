// Whether the built app (dist/) is missing or older than what it is built from: `npm start` and the end-to-end
// tests' setup build it first then.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const outputs = ['dist/web/index.html', 'dist/ssr/ssr-entry.js', 'dist/node/server/main.js'].map((p) =>
  join(root, p),
);
const inputs = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.server.json',
  'package.json',
  'package-lock.json',
  'scripts/compress-web.mjs',
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export function buildIsStale() {
  const builtAt = Math.min(...outputs.map((p) => (existsSync(p) ? statSync(p).mtimeMs : 0)));
  const changedAt = Math.max(...inputs.map((p) => newest(join(root, p))));
  return builtAt < changedAt;
}

export const projectRoot = root;
