import { spawn, type ChildProcess } from 'node:child_process';
import { projectRoot } from '../lib/project-root.js';

const running: ChildProcess[] = [];

/** Starts the real server (src/server/main.ts) in its own process, as `npm start` would, with `env`. */
export function startServerProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: projectRoot(),
    env: { ...process.env, LOG_LEVEL: 'info', GEOCODER: 'off', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    async ready(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      const port = Number(env.PORT);
      while (Date.now() < deadline) {
        if (output.includes('marketplace ready')) return;
        if (port > 0) {
          const up = await fetch(`http://127.0.0.1:${port}/readyz`).then(
            (r) => r.ok,
            () => false,
          );
          if (up) return;
        }
        if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`server not ready in time:\n${output}`);
    },
  };
}

/** Kills every server this test file started and left running. */
export function killServerProcesses(): void {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}
