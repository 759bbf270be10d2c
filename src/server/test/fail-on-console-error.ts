import { afterEach, beforeEach, vi } from 'vitest';

// A test that logs an unexpected console.error fails: errors must be handled or asserted, not printed.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length > 0) throw new Error(`console.error was called: ${JSON.stringify(errors).slice(0, 500)}`);
});
