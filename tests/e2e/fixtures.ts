import { demoKitchensNewest } from './db.js';
import { privateServer, type PrivateServer } from './private-server.js';
import { test as base, expect, type BrowserContext, type ConsoleMessage, type Page } from '@playwright/test';

/**
 * Every page a test opens fails the test when it logs a console error or throws, in the test's own context and in
 * every context it opens with `browser.newContext()`. A test that provokes an error on purpose (a 404 it expects)
 * lists the failing URLs with `test.use({ expectedErrorUrls: [/.../] })`, or, for a message the browser itself logs
 * (no URL of ours), its text with `expectedErrorTexts`.
 */
export const watchedTest = base.extend<{
  watchConsole: void;
  expectedErrorUrls: RegExp[];
  expectedErrorTexts: RegExp[];
}>({
  expectedErrorUrls: [[], { option: true }],
  expectedErrorTexts: [[], { option: true }],
  watchConsole: [
    async ({ browser, context, expectedErrorUrls, expectedErrorTexts }, use) => {
      const problems: string[] = [];
      const watch = (page: Page) => {
        page.on('console', (msg: ConsoleMessage) => {
          const url = msg.location().url;
          // Cooks' broken picture links (tests use the reserved .invalid domain) fail to load by design.
          if (msg.type() !== 'error' || url.includes('.invalid/')) return;
          if (expectedErrorUrls.some((pattern) => pattern.test(url))) return;
          if (expectedErrorTexts.some((pattern) => pattern.test(msg.text()))) return;
          problems.push(`console.error on ${page.url()}: ${msg.text()}`);
        });
        page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
      };
      const watchContext = (watched: BrowserContext) => {
        watched.pages().forEach(watch);
        watched.on('page', watch);
      };
      watchContext(context);
      // The browser is the worker's, shared by its tests: its newContext is wrapped for this test only.
      const newContext = browser.newContext;
      browser.newContext = async (...options) => {
        const opened = await newContext.apply(browser, options);
        watchContext(opened);
        return opened;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
      expect(problems, problems.join('\n')).toEqual([]);
    },
    { auto: true },
  ],
});

/** `watchedTest` on each worker's own server (PostgreSQL, the demo kitchens first): what most specs use. */
export const test = watchedTest.extend<{ demoFirst: void }, { workerServer: PrivateServer }>({
  /**
   * Each worker's own server, on its own new PostgreSQL database with the demo kitchens, started as `npm start`
   * runs it: a worker's tests see only their own writes (a kitchen another worker's test adds does not move the card
   * this one is about to tap), and run one after the other on it.
   */
  workerServer: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other
    async ({}, use, workerInfo) => {
      const server = await privateServer({
        env: {
          SEED_DEMO: 'true',
          GEOCODER: 'photon',
          GEOCODER_URL: process.env.E2E_GEOCODER_URL ?? '',
          OPERATOR_EMAILS: 'operator@e2e.test',
        },
        name: `w${workerInfo.workerIndex}`,
      });
      await server.start();
      // What tests/e2e/db.ts writes to, and the origin its cookies are for.
      process.env.E2E_DATABASE_URL = server.databaseUrl;
      process.env.E2E_BASE_URL = server.url;
      await use(server);
      await server.dispose();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ workerServer }, use) => use(workerServer.url),
  /**
   * Each test starts with the demo kitchens on the landing page's first page (tests look for "Asha's Tiffin"), however
   * many kitchens the worker's earlier tests added; the kitchens a test adds itself are newer still.
   */
  demoFirst: [
    async ({ workerServer }, use) => {
      void workerServer;
      await demoKitchensNewest();
      await use();
    },
    { auto: true },
  ],
});

export { expect };
