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
 * - process: real server processes (npm start, crashes, outages, several instances), one file at a time.
 */
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
      // Each file starts servers (and one builds the app): side by side on two cores they would time each other out.
      fileParallelism: false,
      ...common,
      ...withPostgres,
    },
  },
];

export default defineConfig({ test: { maxWorkers: 2, projects, sequence: { sequencer: LongestFirst } } });
