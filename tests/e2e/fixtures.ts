import { test as base, expect, type BrowserContext, type ConsoleMessage, type Page } from '@playwright/test';

/**
 * Every page a test opens fails the test when it logs a console error or throws, in the test's own context and in
 * every context it opens with `browser.newContext()`. A test that provokes an error on purpose (a 404 it expects)
 * lists the failing URLs with `test.use({ expectedErrorUrls: [/.../] })`.
 */
export const test = base.extend<{ watchConsole: void; expectedErrorUrls: RegExp[] }>({
  expectedErrorUrls: [[], { option: true }],
  watchConsole: [
    async ({ browser, context, expectedErrorUrls }, use) => {
      const problems: string[] = [];
      const watch = (page: Page) => {
        page.on('console', (msg: ConsoleMessage) => {
          const url = msg.location().url;
          // Cooks' broken picture links (tests use the reserved .invalid domain) fail to load by design.
          if (msg.type() !== 'error' || url.includes('.invalid/')) return;
          if (expectedErrorUrls.some((pattern) => pattern.test(url))) return;
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

export { expect };
