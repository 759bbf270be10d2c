import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A private server: its URL, and its life (start, stop, crash, destroy). */
export type PrivatePostgres = ReturnType<typeof createPrivatePostgres>;

function postgresTools() {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  const bin = join('/usr/lib/postgresql', versions[0] ?? '', 'bin');
  if (!existsSync(join(bin, 'pg_ctl'))) throw new Error(`no PostgreSQL binaries in ${bin}`);
  const dir = mkdtempSync(join(tmpdir(), 'mkt-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    execFileSync('chown', ['postgres:postgres', dir]);
    chmodSync(dir, 0o755);
  }
  const run = (tool: string, args: string[], { check = true } = {}) => {
    const command = asRoot ? 'runuser' : join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 60_000 });
    if (check && result.status !== 0) throw new Error(`${tool} failed: ${result.stderr || result.stdout}`);
  };
  return { dir, run };
}

function serverOf(
  { dir, run }: ReturnType<typeof postgresTools>,
  dataDir: string,
  port: number,
  settings: string,
) {
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off ${settings}`;
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dir, 'log'), '-w', 'start']),
    stop: () => run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']),
    /** Stops the server as a crash would: every process quits at once, and the next start replays the WAL. */
    crash: () => run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']),
    destroy: () => {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop'], { check: false });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A PostgreSQL server of the test's own (initdb in a temporary folder, its own port), so a test can stop and
 * start it without disturbing the shared server other tests use. Runs as the `postgres` user when we are root.
 * `replication`: a primary that streaming replicas may copy and follow (see `createPrivateReplica`).
 */
export function createPrivatePostgres(port: number, { replication = false } = {}) {
  const tools = postgresTools();
  const dataDir = join(tools.dir, 'data');
  tools.run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  if (replication) {
    // Written as the server's user would: the file stays theirs (appending keeps its owner and mode).
    appendFileSync(join(dataDir, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\n');
  }
  return serverOf(tools, dataDir, port, replication ? '-c wal_level=replica -c max_wal_senders=5' : '');
}

/**
 * A streaming replica of a running `primary` (made with `createPrivatePostgres(…, { replication: true })`): a base
 * backup of it (`pg_basebackup -R`, which also writes the standby's connection to the primary), served read-only
 * on a port of its own while it replays the primary's WAL. Started by `start()`, like any private server.
 */
export function createPrivateReplica(primary: { port: number }, port: number) {
  const tools = postgresTools();
  const dataDir = join(tools.dir, 'data');
  tools.run('pg_basebackup', [
    ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
    ...['-D', dataDir, '-R', '-X', 'stream', '--no-sync'],
  ]);
  return serverOf(tools, dataDir, port, '-c hot_standby=on');
}
