import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/e2e/chromium.js';

// Address suggestions come from a local stand-in for Photon (tests/e2e/fake-photon.mjs), never the internet. Each
// worker starts a server of its own (tests/e2e/fixtures.ts) on the app built once by global-setup.ts.
const geocoderPort = Number(process.env.E2E_GEOCODER_PORT ?? 23210);
process.env.E2E_GEOCODER_URL = `http://127.0.0.1:${geocoderPort}/api`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // One test per core, each with a server of its own. Four at once on two cores was quicker when the machine was
  // quiet, but on a slower day (2026-11-26) the heaviest tests (a cook and a customer side by side, axe scans) ran out
  // their 60 s, the landed build as well: the same six took 2.7 min with 4 failures at four workers, 1.9 min and all
  // passed at two.
  workers: Number(process.env.E2E_WORKERS ?? availableParallelism()),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: 'off',
  },
  globalSetup: './tests/e2e/global-setup.ts',
  webServer: [
    {
      command: 'node tests/e2e/fake-photon.mjs',
      url: `http://127.0.0.1:${geocoderPort}/health`,
      reuseExistingServer: false,
      env: { PORT: String(geocoderPort) },
    },
  ],
});
