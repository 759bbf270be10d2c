import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from './app.js';
import { answerBackupRequests } from './backup/backup.js';
import { ConfigError, loadConfig } from './lib/config.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { openDatabase, type Database } from './db/database.js';
import { openReplica, type Replica } from './db/read-replica.js';
import { activateDemoPayouts, seedDemo } from './seed-demo.js';

const SHUTDOWN_GRACE_MS = 4000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const logger = pino({
    level: config.logLevel,
    ...(process.stdout.isTTY
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } } }
      : {}),
  });

  let database: Database | undefined;
  let replica: Replica | undefined;
  let app: FastifyInstance | undefined;
  const start = async () => {
    try {
      database = await openDatabase(config);
    } catch (error) {
      if (error instanceof DataDirLockedError) logger.fatal(error.message);
      else logger.fatal({ err: error }, 'could not open the database');
      process.exit(1);
    }
    // `npm run backup` asks a running server for the copy of its embedded database (src/server/backup/).
    if (database.kind === 'pglite') answerBackupRequests(database, config.dataDir, logger);
    const seed = config.seedDemo ?? (database.kind === 'pglite' && database.fresh);
    if (seed && (await seedDemo(database.db))) logger.info('demo kitchens added');

    // Public reads off a streaming replica (docs/decisions/0009-public-reads-off-a-replica.md): opening it connects
    // nothing yet, and a replica that is down leaves every read on the primary.
    replica = config.readReplica ? openReplica(config.readReplica.url) : undefined;
    app = await buildApp({ config, database, logger, ...(replica ? { replica } : {}) });
    await activateDemoPayouts(app);
    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (error) {
      logger.fatal({ err: error }, 'could not listen');
      await database.close();
      process.exit(1);
    }
    logger.info(`marketplace ready at ${config.publicUrl} (database: ${database.kind})`);
  };
  const started = start();

  // Listening from the first moment: a signal while the server starts lets it finish starting, then closes it
  // like a running one (the PGlite lock included), rather than killing it half-open.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await started;
      await app?.close();
      await replica?.close();
      await database?.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await started;
}

void main();
