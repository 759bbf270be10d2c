import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { LongestFirst } from './vitest.sequencer.js';

const common = {
  setupFiles: ['src/server/test/fail-on-console-error.ts', 'src/server/test/english-for-tests.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};
/** Drops the throw-away PostgreSQL databases of killed runs; only the layers that use PostgreSQL need it. */
const withPostgres = { globalSetup: ['src/server/test/global-setup.ts'] };

/**
 * The suite in layers, each runnable alone (`npm run test:unit`, `test:db`, `test:process`); `npm test` runs all:
 * - unit: no database, no server (shared and web code, and server modules tested on their own: *.unit.test.ts);
 * - db: the API on a real database, every test on PGlite and on PostgreSQL;
 * - process: real server processes (crashes, outages, several instances), two files at a time; then process-alone:
 *   npm start and the cluster, which build and serve dist/, one at a time.
 */
/** The process files that build and serve dist/ (see the process-alone project). */
const PROCESS_ALONE = ['tests/process/npm-start.test.ts', 'tests/process/cluster.test.ts'];

const projects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'unit',
      include: ['src/shared/**/*.test.ts', 'src/web/**/*.test.{ts,tsx}', 'src/server/**/*.unit.test.ts'],
      ...common,
    },
  },
  {
    test: {
      name: 'db',
      include: ['src/server/**/*.test.ts', 'tests/api/**/*.test.ts'],
      exclude: ['**/*.unit.test.ts'],
      ...common,
      // One module graph per worker, not per file: the files' imports were a quarter of the layer's time (95 s of
      // 375 on CI). Each file builds its own app and database, and no test mocks a module.
      isolate: false,
      ...withPostgres,
    },
  },
  {
    test: {
      name: 'process',
      include: ['tests/process/**/*.test.ts'],
      exclude: PROCESS_ALONE,
      // Two files at a time (issue 56): most of their time is spent waiting (for a server to start, an outage to
      // pass, a replica to replay), not computing. One module graph per worker, as in the db layer: a file that builds
      // the app in process imports most of the server (import time was 316 s of a 717 s run at load 20).
      ...common,
      isolate: false,
      ...withPostgres,
      sequence: { groupOrder: 1 },
    },
  },
  {
    test: {
      name: 'process-alone',
      include: PROCESS_ALONE,
      // These build the app into dist/ (npm start on a stale build; the cluster script) and serve it: one at a time,
      // after the others, with both cores to themselves.
      fileParallelism: false,
      ...common,
      ...withPostgres,
      sequence: { groupOrder: 2 },
    },
  },
];

export default defineConfig({ test: { maxWorkers: 2, projects, sequence: { sequencer: LongestFirst } } });
