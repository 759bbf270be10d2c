import { test as base, expect, type ConsoleMessage, type Page } from '@playwright/test';

/** Every page a test opens fails the test when it logs a console error or throws. */
export const test = base.extend<{ watchConsole: void }>({
  watchConsole: [
    async ({ context }, use) => {
      const problems: string[] = [];
      const watch = (page: Page) => {
        page.on('console', (msg: ConsoleMessage) => {
          // Cooks' broken picture links (tests use the reserved .invalid domain) fail to load by design.
          if (msg.type() === 'error' && !msg.location().url.includes('.invalid/'))
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
