import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from '../lib/clock.js';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.js';
import { openPglite, type Database } from '../db/database.js';

/**
 * Backups of the embedded database. PGlite lives inside the server's process and the server locks DATA_DIR, so
 * while it runs no other process may read the files: `npm run backup` then asks the server (SIGUSR2, which only
 * the same user or root can send) to write the copy itself, naming the file in DATA_DIR/backup-request.json, and
 * waits for its answer. With no server running, it opens the directory itself. Either way the copy is PGlite's
 * own dump of its files, taken between transactions.
 */

const REQUEST = 'backup-request.json';
const answerFile = (dataDir: string, id: string) => join(dataDir, `backup-${id}.answer.json`);
const WAIT_FOR_SERVER_MS = 120_000;

interface BackupRequest {
  id: string;
  file: string;
}

async function writeAtomically(file: string, blob: Blob): Promise<void> {
  const partial = `${file}.partial`;
  await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
  renameSync(partial, file);
}

/** In the server: answers `npm run backup` (SIGUSR2) by writing the copy asked for. Returns the stop function. */
export function answerBackupRequests(
  database: Database,
  dataDir: string,
  log: FastifyBaseLogger,
): () => void {
  const dir = resolve(dataDir);
  const onSignal = () => {
    let request: BackupRequest;
    try {
      request = JSON.parse(readFileSync(join(dir, REQUEST), 'utf8')) as BackupRequest;
    } catch {
      log.warn('SIGUSR2 without a backup request: ignored');
      return;
    }
    const answer = (body: { ok: boolean; error?: string }) =>
      writeFileSync(answerFile(dir, request.id), JSON.stringify(body));
    void (async () => {
      try {
        if (!database.backup) throw new Error('this database is not embedded: use pg_dump');
        await writeAtomically(request.file, await database.backup());
        log.info({ file: request.file }, 'backup written');
        answer({ ok: true });
      } catch (error) {
        log.error({ err: error }, 'backup failed');
        answer({ ok: false, error: error instanceof Error ? error.message : String(error) });
      }
    })();
  };
  process.on('SIGUSR2', onSignal);
  return () => void process.off('SIGUSR2', onSignal);
}

/** Writes a consistent copy of the PGlite database in `dataDir` to `file` (gzipped tar), server running or not. */
export async function backupDataDir(
  dataDir: string,
  file: string,
  clock: Clock = systemClock,
): Promise<void> {
  const dir = resolve(dataDir);
  const target = resolve(file);
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new Error(`No embedded database in ${dir}`);
  let database: Database | undefined;
  try {
    database = await openPglite(dir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    return askServer(dir, target, clock);
  }
  try {
    await writeAtomically(target, await database.backup!());
  } finally {
    await database.close();
  }
}

async function askServer(dir: string, target: string, clock: Clock): Promise<void> {
  const pid = Number(readFileSync(join(dir, 'server.lock'), 'utf8').trim());
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  writeFileSync(join(dir, REQUEST), JSON.stringify({ id, file: target } satisfies BackupRequest));
  process.kill(pid, 'SIGUSR2');
  const answer = answerFile(dir, id);
  const deadline = clock.now() + WAIT_FOR_SERVER_MS;
  while (!existsSync(answer)) {
    if (clock.now() > deadline) throw new Error(`The server (pid ${pid}) did not write the backup in time`);
    await clock.sleep(100);
  }
  const { ok, error } = JSON.parse(await readFile(answer, 'utf8')) as { ok: boolean; error?: string };
  rmSync(answer, { force: true });
  if (!ok) throw new Error(`The server could not write the backup: ${error}`);
}

/**
 * Replaces the database in `dataDir` by the copy in `file`. Refused while a server holds the directory; what was
 * there is kept beside it (`<dir>.before-restore-<time>`) rather than deleted.
 */
export async function restoreDataDir(dataDir: string, file: string): Promise<string | undefined> {
  const dir = resolve(dataDir);
  const blob = new Blob([await readFile(resolve(file))]);
  let kept: string | undefined;
  if (existsSync(dir)) {
    lockDataDir(dir)(); // throws DataDirLockedError while a server runs on it
    kept = join(
      dirname(dir),
      `${dir.split('/').pop()}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`,
    );
    renameSync(dir, kept);
  }
  const unlock = lockDataDir(dir);
  try {
    const client = new PGlite(dir, { loadDataDir: blob });
    await client.waitReady;
    await client.query('select 1');
    await client.close();
  } finally {
    // The copy holds the lock file of the server it was taken from: ours, removed here, replaces it.
    unlock();
  }
  return kept;
}
