import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../scripts/build-state.mjs';
import { freePort } from './private-server.js';

export interface ReadmeServer {
  /** Where it listens, as a new user opens it (http://localhost:<port>). */
  url: string;
  /** Everything it has printed so far. */
  output(): string;
  /** SIGTERM, as Ctrl-C in a terminal; then its new data directory is removed. */
  dispose(): Promise<void>;
}

/** Variables a developer's or CI's shell may hold that a new user's does not: the README path sets none. */
const NOT_ON_THE_README_PATH = [
  'NODE_ENV',
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'BUS_URL',
  'PUBLIC_URL',
  'HOST',
  'PAYMENTS',
  'SEED_DEMO',
  'DEV_SIGN_IN',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'SESSION_SECRET',
  'GEOCODER',
  'LIVE_STREAMS_PER_ADDRESS',
  'LIVE_STREAMS_PER_SESSION',
  'SIGN_IN_RATE_LIMIT',
  'LOG_LEVEL',
];

/**
 * The server as the README starts it for a new user: `npm start` (scripts/start.mjs, which runs the build made by
 * global-setup.ts), no DATABASE_URL, so the embedded database (PGlite) in a new, empty DATA_DIR, with the
 * development sign-in (/dev-idp), local payments (/dev-pay) and the demo kitchens the defaults give. Only three things
 * differ from a new user's terminal: its own DATA_DIR and PORT, so that it shares nothing, and address suggestions
 * from the suite's stand-in for Photon (tests/e2e/fake-photon.mjs) instead of the internet. `npm` runs with the Node
 * this test runs on (the stream's bug showed only on Node 24.22 and later).
 */
export async function startReadmeServer(): Promise<ReadmeServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mkt-readme-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of NOT_ON_THE_README_PATH) delete env[name];
  for (const name of Object.keys(env))
    if (name.startsWith('E2E_') || name.startsWith('npm_')) delete env[name];
  Object.assign(env, {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    DATA_DIR: dataDir,
    PORT: String(port),
    GEOCODER_URL: process.env.E2E_GEOCODER_URL ?? '',
  });
  // Its own process group, so that a server that will not stop is killed with everything npm started, and nothing else.
  const child = spawn('npm', ['start'], {
    cwd: projectRoot as string,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://localhost:${port}`;
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const stopped = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
      ]);
      if (!stopped && child.pid !== undefined) {
        process.kill(-child.pid, 'SIGKILL');
        await exited;
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await dispose();
      throw new Error(`npm start exited while starting:\n${output}`);
    }
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await dispose();
      throw new Error(`npm start did not become ready in 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, output: () => output, dispose };
}
