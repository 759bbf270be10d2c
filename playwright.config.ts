import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/e2e/chromium.js';

const port = Number(process.env.E2E_PORT ?? 3210);
// The end-to-end server starts as `npm start` does (building the app when the build is older than the sources:
// the build is the same whatever NODE_ENV says, tests/process/npm-start.test.ts checks), on a throw-away PostgreSQL
// database (so a test can also watch the database), with the development sign-in provider and demo kitchens.
const databaseName = `mkt_e2e_${port}`;
const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
process.env.E2E_DATABASE_URL = databaseUrl;
process.env.E2E_BASE_URL = `http://localhost:${port}`;
// Address suggestions come from a local stand-in for Photon (tests/e2e/fake-photon.mjs), never the internet.
const geocoderPort = port + 20_000;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // Most of an end-to-end test is waiting (the network, the next frame, a live change): three at once use two cores.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: 'off',
  },
  webServer: [
    {
      command: 'node tests/e2e/fake-photon.mjs',
      url: `http://127.0.0.1:${geocoderPort}/health`,
      reuseExistingServer: false,
      env: { PORT: String(geocoderPort) },
    },
    {
      command: 'node scripts/e2e-server.mjs',
      url: `http://localhost:${port}/readyz`,
      reuseExistingServer: false,
      timeout: 240_000, // a build first, when needed
      env: {
        PORT: String(port),
        E2E_ADMIN_URL: adminUrl,
        E2E_DATABASE_NAME: databaseName,
        DATABASE_URL: databaseUrl,
        SEED_DEMO: 'true',
        GEOCODER: 'photon',
        GEOCODER_URL: `http://127.0.0.1:${geocoderPort}/api`,
        // Every test signs in from 127.0.0.1: the per-address limit meant for people would throttle the suite.
        SIGN_IN_RATE_LIMIT: '10000',
        // Every browser of the suite is 127.0.0.1 too.
        LIVE_STREAMS_PER_ADDRESS: '10000',
        // The operator of tests/e2e/moderation.spec.ts (signs in at /Operator through the development provider).
        OPERATOR_EMAILS: 'operator@e2e.test',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
      },
    },
  ],
});
