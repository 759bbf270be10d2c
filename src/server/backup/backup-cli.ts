import { loadConfig } from '../lib/config.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { backupDataDir, restoreDataDir } from './backup.js';

/**
 * `npm run backup [FILE]` and `npm run restore FILE`, for the embedded database in DATA_DIR. On PostgreSQL
 * (DATABASE_URL), use pg_dump and pg_restore (docs/operations.md, "Backups").
 */
async function main(command: string | undefined, file: string | undefined): Promise<number> {
  const config = loadConfig({ ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'silent' });
  if (config.databaseUrl) {
    console.error(
      'DATABASE_URL is set: back up PostgreSQL with pg_dump, e.g.\n' +
        '  pg_dump --format=custom --file=homecooked.dump "$DATABASE_URL"\n' +
        'and restore with pg_restore --clean --if-exists --dbname="$DATABASE_URL" homecooked.dump',
    );
    return 2;
  }
  if (command === 'backup') {
    const target = file ?? `homecooked-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
    await backupDataDir(config.dataDir, target);
    console.log(`Backup of ${config.dataDir} written to ${target}`);
    return 0;
  }
  if (command === 'restore' && file) {
    try {
      const kept = await restoreDataDir(config.dataDir, file);
      console.log(
        `Restored ${file} into ${config.dataDir}${kept ? ` (what was there is kept in ${kept})` : ''}`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      console.error(`Refusing to restore: ${error.message}`);
      return 1;
    }
  }
  console.error('Usage: npm run backup [FILE] | npm run restore FILE');
  return 2;
}

main(process.argv[2], process.argv[3]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
