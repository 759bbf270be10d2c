// `npm start`: builds the app when the build is missing or older than the sources, then runs the server.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildIsStale, projectRoot as root } from './build-state.mjs';

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

if (buildIsStale()) {
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
