import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export const root = new URL('..', import.meta.url).pathname;

export interface Proc {
  child: ChildProcess;
  port: number;
  url: string;
  stop(): Promise<void>;
}

// Below the ephemeral range (32768+), where thousands of client sockets of the fan-out test take their ports.
let nextPort = 21000 + Math.floor(Math.random() * 5000);
export const allocatePort = () => nextPort++;

export async function waitForReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not ready in ${timeoutMs} ms`);
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 8000).unref();
    });
}

/** Starts the built app (as `npm start` runs it) on its own port; `cwd`: another checkout's build (a baseline). */
export async function startApp(env: Record<string, string>, cwd = root): Promise<Proc> {
  const port = allocatePort();
  const child = spawn(process.execPath, ['dist/node/server/main.js'], {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'error',
      GEOCODER: 'off',
      SEED_DEMO: 'false',
      // Cash orders: the order route itself (bench/payments.ts measures the card payments' steps).
      PAYMENTS: 'off',
      // The fan-out opens thousands of streams from one address.
      LIVE_STREAMS_PER_ADDRESS: '1000000',
      LIVE_STREAMS_PER_SESSION: '100000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`))),
  );
  await Promise.race([waitForReady(`${url}/readyz`), exited]);
  return { child, port, url, stop: stopper(child) };
}

export async function startBare(): Promise<Proc> {
  const port = allocatePort();
  const child = fork(`${root}bench/bare-server.ts`, [], {
    env: { ...process.env, PORT: String(port) },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForReady(`${url}/hello`);
  return { child, port, url, stop: stopper(child) };
}

/** The bare order route (bench/bare-orders-server.ts) on the database named by `env`, as the app would open it. */
export async function startBareOrders(env: Record<string, string>): Promise<Proc> {
  const port = allocatePort();
  const child = fork(`${root}bench/bare-orders-server.ts`, [], {
    env: { ...process.env, PORT: String(port), ...env },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForReady(`${url}/readyz`);
  return { child, port, url, stop: stopper(child) };
}

/** Resident memory of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export interface LoadResult {
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

export async function load(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ ...options });
  return {
    // A run of a fixed number of requests ends on autocannon's one-second tick, so both its per-second average and
    // its wall time are quantised (1,500 requests can only make 375/s or 500/s). Its connections are a closed loop
    // (each sends the next request when an answer arrives), so the throughput is connections / mean latency.
    requestsPerSec:
      options.amount !== undefined && result.latency.mean > 0
        ? ((options.connections ?? 10) * 1000) / result.latency.mean
        : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The p-th percentile of `values` (nearest rank). */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** One figure of a benchmark run, as printed and written to bench/results/latest.json. */
export interface BenchRow {
  measure: string;
  engine: string;
  value: number;
  unit: string;
  baseline?: number;
  target?: string;
  ok?: boolean;
}
