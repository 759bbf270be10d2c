import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

describe('DATA_DIR lock', () => {
  it('refuses a second holder while the first is alive, and frees on release', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-lock-'));
    const release = lockDataDir(dir);
    // Our own pid is alive, so the lock file it wrote blocks anyone else.
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    release();
    const again = lockDataDir(dir);
    again();
  });

  it('takes over a lock left by a dead process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-lock-'));
    writeFileSync(join(dir, 'server.lock'), '999999999');
    const release = lockDataDir(dir);
    release();
  });
});
