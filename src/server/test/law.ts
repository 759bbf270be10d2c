import { expect } from 'vitest';
import type { TestContext } from './test-app.js';

/** The permit number the papers below give a kitchen. */
export const PERMIT_NUMBER = 'MEHKO-2041';

/** The permit and the food safety certificate California's rules require before a kitchen takes orders. */
export async function addPapers(ctx: TestContext, cookie: string, expiresOn = '2030-12-31') {
  for (const [kind, number] of [
    ['permit', PERMIT_NUMBER],
    ['food-safety-certificate', 'FSM-7731'],
  ] as const) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/kitchen/documents',
      headers: { cookie },
      payload: { kind, number, expiresOn },
    });
    expect(res.statusCode).toBe(201);
  }
}
