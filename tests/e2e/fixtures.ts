import { test as base, expect, type ConsoleMessage, type Page } from '@playwright/test';

/**
 * Every page a test opens fails the test when it logs a console error or throws. A test that provokes an
 * error on purpose (a 404 it expects) lists the failing URLs with `test.use({ expectedErrorUrls: [/.../] })`.
 */
export const test = base.extend<{ watchConsole: void; expectedErrorUrls: RegExp[] }>({
  expectedErrorUrls: [[], { option: true }],
  watchConsole: [
    async ({ context, expectedErrorUrls }, use) => {
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
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      expect(problems, problems.join('\n')).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
