import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/e2e/chromium.js';

// Address suggestions come from a local stand-in for Photon (tests/e2e/fake-photon.mjs), never the internet. Each
// worker starts a server of its own (tests/e2e/fixtures.ts) on the app built once by global-setup.ts.
const geocoderPort = Number(process.env.E2E_GEOCODER_PORT ?? 23210);
process.env.E2E_GEOCODER_URL = `http://127.0.0.1:${geocoderPort}/api`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // Most of an end-to-end test is waiting (the network, the next frame, a live change): four at once, each with a server of its own, use two cores.
  workers: Number(process.env.E2E_WORKERS ?? 4),
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
