import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL server of the test's own (initdb in a temporary folder, its own port), so a test can stop and
 * start it without disturbing the shared server other tests use. Runs as the `postgres` user when we are root.
 */
export function createPrivatePostgres(port: number) {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  const bin = join('/usr/lib/postgresql', versions[0] ?? '', 'bin');
  if (!existsSync(join(bin, 'pg_ctl'))) throw new Error(`no PostgreSQL binaries in ${bin}`);
  const dir = mkdtempSync(join(tmpdir(), 'mkt-pg-'));
  const dataDir = join(dir, 'data');
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
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  return {
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
