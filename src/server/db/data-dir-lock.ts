import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Directories this process has locked (a lock file naming our pid is ours only if it is listed here). */
const heldHere = new Set<string>();

/**
 * PGlite is one process's private database: a second server opening the same files would corrupt them.
 * Takes DATA_DIR/server.lock (holding our pid). A lock left by a dead process is taken over, and so is one that
 * names our own pid without this process holding it: a container restarted after a crash runs the server as the
 * same pid (often 1) again.
 */
export function lockDataDir(dataDir: string): () => void {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const lockFile = join(dir, 'server.lock');
  if (heldHere.has(dir)) throw new DataDirLockedError(`DATA_DIR ${dir} is already open in this process`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      heldHere.add(dir);
      return () => {
        heldHere.delete(dir);
        rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `DATA_DIR ${dir} is in use by another server (pid ${holder}). ` +
            'Stop it, or give this one another DATA_DIR (or a PostgreSQL DATABASE_URL to share one database).',
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock DATA_DIR ${dir}`);
}
