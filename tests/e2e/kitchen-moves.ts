import { expect, type APIRequestContext } from '@playwright/test';

/**
 * The cook takes an order to the door (accept with 30 minutes, prepare, dispatch, deliver) through the API, as its
 * buttons would; `at` makes a path an address of the server the request context is not based on.
 */
export async function deliverOrder(
  request: APIRequestContext,
  orderId: string,
  at: (path: string) => string = (path) => path,
): Promise<void> {
  for (const body of [
    { move: 'accept', readyInMinutes: 30 },
    { move: 'prepare' },
    { move: 'dispatch' },
    { move: 'deliver' },
  ]) {
    const moved = await request.post(at(`/api/kitchen/orders/${orderId}/moves`), { data: body });
    expect(moved.status(), await moved.text()).toBe(200);
  }
}
