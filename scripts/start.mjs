// `npm start`: builds the app when the build is missing or older than the sources, then runs the server.
import { spawn } from 'node:child_process';
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

// SIGTERM or SIGINT during the build stops all of it (npm runs each step through `sh -c`, which does not pass
// a signal on, hence the process group) and then us, with 0: stopping is what was asked. One that comes after
// the build is handed to the server's own handlers, which close it cleanly.
let build;
let pending;
const onSignal = (signal) => {
  pending = signal;
  try {
    if (build) process.kill(-build.pid, signal);
  } catch {
    // the build has just ended
  }
};
process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);

const builtAt = Math.min(...outputs.map((p) => (existsSync(p) ? statSync(p).mtimeMs : 0)));
const changedAt = Math.max(...inputs.map((p) => newest(join(root, p))));
if (builtAt < changedAt) {
  console.log('Building the app (sources changed since the last build)...');
  build = spawn('npm', ['run', 'build'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const status = await new Promise((resolve) => build.on('exit', (code) => resolve(code ?? 1)));
  build = undefined;
  if (pending) process.exit(0);
  if (status !== 0) process.exit(status);
}
await import(join(root, 'dist/node/server/main.js'));
process.off('SIGTERM', onSignal);
process.off('SIGINT', onSignal);
if (pending) process.kill(process.pid, pending);
