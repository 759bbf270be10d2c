import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/server/db/database.js';
import {
  killServerProcesses,
  startProcess,
  startServerProcess,
} from '../../src/server/test/server-process.js';

const work = mkdtempSync(join(tmpdir(), 'backup-test-'));
const dataDir = join(work, 'data');

/** Every row of every table of ours, as one text per table: equal texts mean equal contents. */
async function fingerprint(): Promise<Record<string, string>> {
  const database = await openPglite(dataDir);
  try {
    const tables = await database.db.execute<{ name: string }>(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    const out: Record<string, string> = {};
    for (const { name } of (tables as unknown as { rows: { name: string }[] }).rows) {
      const result = await database.db.execute(
        sql`select count(*)::int as n, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h from ${sql.identifier(name)} t`,
      );
      const row = (result as unknown as { rows: { n: number; h: string }[] }).rows[0];
      out[name] = `${row?.n}:${row?.h}`;
    }
    return out;
  } finally {
    await database.close();
  }
}

const cli = (...args: string[]) =>
  startProcess(process.execPath, ['--import', 'tsx', 'src/server/backup/backup-cli.ts', ...args], {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
  });

describe('npm run backup / restore (embedded database)', () => {
  afterEach(() => killServerProcesses());
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('copies the database while the server runs and when it does not; backup, wipe, restore gives back every row', async () => {
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const server = startServerProcess({ PORT: port, DATA_DIR: dataDir, SEED_DEMO: 'true' });
    await server.ready(60_000);

    // While the server runs: it writes the copy itself.
    const online = join(work, 'online.tar.gz');
    const backup = cli('backup', online);
    expect(await backup.exited, backup.output()).toBe(0);
    expect(statSync(online).size).toBeGreaterThan(1000);
    expect(server.output()).toContain('backup written');

    // Restoring under a running server is refused, and changes nothing.
    const refused = cli('restore', online);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/Refusing to restore: .*in use by another server/);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const before = await fingerprint();
    expect(Number(before.kitchens?.split(':')[0])).toBeGreaterThan(0);
    expect(Number(before.menu_items?.split(':')[0])).toBeGreaterThan(0);

    // With no server: the command opens the directory itself.
    const offline = join(work, 'offline.tar.gz');
    expect(await cli('backup', offline).exited).toBe(0);

    for (const file of [online, offline]) {
      rmSync(dataDir, { recursive: true, force: true });
      const restore = cli('restore', file);
      expect(await restore.exited, restore.output()).toBe(0);
      expect(await fingerprint()).toEqual(before);
    }
    // What a restore replaced is kept beside it, not deleted.
    const restoreOver = cli('restore', online);
    expect(await restoreOver.exited).toBe(0);
    expect(restoreOver.output()).toMatch(/kept in .*before-restore/);
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(false);

    // And a server starts on the restored directory.
    const again = startServerProcess({ PORT: port, DATA_DIR: dataDir });
    await again.ready(60_000);
    const kitchens = (await (await fetch(`http://127.0.0.1:${port}/api/kitchens`)).json()) as unknown[];
    expect(kitchens.length).toBe(Number(before.kitchens?.split(':')[0]));
  }, 180_000);
});
