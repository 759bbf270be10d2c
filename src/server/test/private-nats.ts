import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`nats-server: ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A NATS server with JetStream of the test's own (its own port, its own store in a temporary folder), so a test can
 * stop and start it without disturbing the shared one on 4222. A restart keeps the store (the stream survives).
 */
export function createPrivateNats(port: number, { jetstream = true } = {}) {
  if (!existsSync(NATS_SERVER_BIN))
    throw new Error(`no nats-server at ${NATS_SERVER_BIN} (Debian: nats-server)`);
  const dir = mkdtempSync(join(tmpdir(), 'mkt-nats-'));
  let child: ChildProcess | undefined;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      if (child) return;
      const started = spawn(
        NATS_SERVER_BIN,
        [
          ...['-a', '127.0.0.1', '-p', String(port), '-l', join(dir, 'log')],
          ...(jetstream ? ['-js', '-sd', join(dir, 'store')] : []),
        ],
        { stdio: 'ignore' },
      );
      child = started;
      await until(async () => {
        if (started.exitCode !== null)
          throw new Error(`nats-server exited (${started.exitCode}), see ${dir}/log`);
        return reachable(port);
      }, 'listening');
    },
    stop,
    /** Stops the server and loses its store, as a NATS whose disk was lost would come back: without the stream. */
    async wipe() {
      await stop();
      rmSync(join(dir, 'store'), { recursive: true, force: true });
    },
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
