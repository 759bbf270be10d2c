import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

describe('DATA_DIR lock', () => {
  it('refuses a second holder while the first is alive, and frees on release', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-lock-'));
    const release = lockDataDir(dir);
    // Held by this very process: a second open in it is refused too.
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    release();
    const again = lockDataDir(dir);
    again();
  });

  it('takes over a lock naming our own pid that this process does not hold (a restarted container)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-lock-'));
    writeFileSync(join(dir, 'server.lock'), String(process.pid));
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'server.lock'))).toBe(false);
  });

  it('takes over a lock left by a dead process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-lock-'));
    writeFileSync(join(dir, 'server.lock'), '999999999');
    const release = lockDataDir(dir);
    release();
  });
});
