import type { Page, Request, Route } from '@playwright/test';
import { createKitchen, createKitchenWithOwner, markSoldOut } from './db.js';
import { expect, test } from './fixtures.js';

/**
 * The public pages arrive rendered (issue 18): their HTML already shows the kitchens and the menu, the browser
 * adopts it without a hydration error and without asking for the same data again, and the live streams take over.
 * Every test also fails on any console error (fixtures.ts), which is how React reports a hydration mismatch.
 */

/** The topics a request of the tab's one stream (`/api/live?t=…`) carries. */
const topicsOf = (request: Request) =>
  new URL(request.url()).searchParams.getAll('t').map((t) => t.split('#')[0] ?? t);

/** Holds every request for these API paths unanswered until `release()`; records what asked for them. */
async function holdApi(page: Page, paths: string[]) {
  const held: Route[] = [];
  const seen: Request[] = [];
  let released = false;
  await page.route(
    (url) => paths.includes(url.pathname),
    async (route) => {
      seen.push(route.request());
      if (released) await route.continue();
      else held.push(route);
    },
  );
  return {
    seen,
    async release() {
      released = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

/** Console warnings (React's hydration warnings among them) and CSP reports. */
function watchWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning' || /hydrat|Content Security Policy/i.test(msg.text()))
      warnings.push(msg.text());
  });
  return warnings;
}

test('the landing page shows the kitchens before the kitchens API answers, hydrates quietly, then goes live', async ({
  page,
}) => {
  const warnings = watchWarnings(page);
  const api = await holdApi(page, ['/api/kitchens/first-page', '/api/live', '/api/geocode/settings']);
  await page.goto('/');
  // Visible while every request for the list is held: the HTML brought them.
  await expect(page.getByRole('link', { name: /Asha's Tiffin/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Nonna Rosa/ })).toBeVisible();
  // A demo kitchen is open around the clock (another test's kitchen with its own hours may be first, and closed).
  await expect(page.getByRole('link', { name: /Asha's Tiffin/ })).toContainText('Open now');
  // The card's lines as the server sent them: kept, not rendered again, while nothing they show changes (ADR 13).
  const serverHeading = await page
    .getByRole('link', { name: /Asha's Tiffin/ })
    .getByRole('heading', { name: "Asha's Tiffin" })
    .elementHandle();
  // The server knows its geocoder: the address field is in the page, not added (pushing the grid down) later.
  await expect(page.getByRole('combobox', { name: 'Or pick an address' })).toBeVisible();
  // Hydrated: the search field (a controlled input) answers typing without a navigation.
  await expect(page.getByRole('heading', { name: 'Kitchens' })).toBeVisible();
  // The browser asked for the list only as a topic of its one live stream (and not for the geocoder setting): the
  // page's data seeded both queries.
  await expect.poll(() => api.seen.length).toBeGreaterThan(0);
  expect(api.seen.map((r) => [r.resourceType(), new URL(r.url()).pathname])).toEqual(
    api.seen.map(() => ['eventsource', '/api/live']),
  );
  expect(topicsOf(api.seen[0]!)).toContain('/api/kitchens/first-page');
  const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/live');
  await api.release();
  await streamOpen;
  const name = `Rendered Then Live ${Date.now()}`;
  await createKitchen(name);
  await expect(page.getByTestId('kitchen-card').filter({ hasText: name })).toBeVisible();
  expect(await serverHeading?.evaluate((heading) => heading.isConnected)).toBe(true);
  expect(warnings).toEqual([]);
});

test("a kitchen's page shows its menu before its API answers, keeps the cart, then goes live", async ({
  page,
}) => {
  const warnings = watchWarnings(page);
  const { kitchen, items } = await createKitchenWithOwner(`Rendered Menu ${Date.now()}`, {
    category: 'Keralan',
    dishes: [{ item: 'Appam' }, { item: 'Avial' }],
  });
  const [appam] = items;
  if (!appam) throw new Error('no dish');
  // A cart from earlier (localStorage): the page was rendered with an empty one, and must still hydrate, then show
  // it.
  await page.addInitScript(
    ({ uid, name, dish }) =>
      localStorage.setItem(
        'homecooked.cart.v2',
        JSON.stringify({
          kitchen: { uid, name },
          lines: [
            {
              lineId: 'l1',
              id: dish.id,
              item: dish.item,
              imageLink: '',
              priceCents: dish.priceCents,
              wait: '',
            },
          ],
        }),
      ),
    { uid: kitchen.uid, name: kitchen.name, dish: appam },
  );
  const base = `/api/kitchens/${kitchen.uid}`;
  const api = await holdApi(page, [base, `${base}/menu`, `${base}/reviews`, `${base}/slots`, '/api/live']);
  const response = await page.goto(`/KitchenMenu/${kitchen.uid}`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(`${kitchen.name} — Keralan | HomeCooked`);
  await expect(page.getByRole('heading', { level: 1, name: kitchen.name })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Appam' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Avial' })).toBeVisible();
  await expect(page.getByTestId('menu-item').first()).toContainText('$9.00');
  await expect(page.getByTestId('kitchen-hours')).toContainText('Open now');
  await expect(page.getByRole('link', { name: 'Cart (1)' })).toBeVisible();
  // How it takes orders and its reviews are in the page too, not asked for once the app is here.
  await expect(page.getByTestId('kitchen-ordering')).toContainText('Delivery');
  await expect(page.getByText('No reviews yet')).toBeVisible();
  // Its picture link is broken (and failed before React was there to see it): the fallback shows all the same.
  await expect(page.getByRole('img', { name: `${kitchen.name} kitchen` })).toHaveAttribute(
    'src',
    '/demo/fallback.svg',
  );
  // Asked for only as topics of the tab's one stream: the page's data seeded the queries.
  await expect.poll(() => api.seen.length).toBeGreaterThan(0);
  expect(api.seen.map((r) => [r.resourceType(), new URL(r.url()).pathname])).toEqual(
    api.seen.map(() => ['eventsource', '/api/live']),
  );
  // One stream, opened once with every topic the page follows.
  expect(api.seen).toHaveLength(1);
  expect(topicsOf(api.seen[0]!)).toEqual(expect.arrayContaining([base, `${base}/menu`, `${base}/reviews`]));
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/live');
  await api.release();
  await stream;
  // Hydrated: '+' adds to the cart.
  await page.getByRole('button', { name: 'Add Avial to cart' }).click();
  await expect(page.getByRole('link', { name: 'Cart (2)' })).toBeVisible();
  await markSoldOut(kitchen.uid, appam.id);
  await expect(page.getByRole('button', { name: 'Appam is sold out' })).toBeDisabled();
  expect(warnings).toEqual([]);
});

test.describe('an unknown kitchen', () => {
  test.use({ expectedErrorUrls: [/\/KitchenMenu\/00000000-0000-4000-8000-000000000000$/] });

  test('answers 404 with the not-found page, rendered, and asks the API nothing', async ({ page }) => {
    // The newest kitchen, so on the landing page's first page whatever other tests on this server added.
    const { kitchen } = await createKitchenWithOwner(`Back Home ${Date.now()}`);
    const apiCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/kitchens')) apiCalls.push(r.url());
    });
    const response = await page.goto('/KitchenMenu/00000000-0000-4000-8000-000000000000');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Kitchen not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the kitchens' }).click();
    await expect(page.getByRole('link', { name: new RegExp(kitchen.name) })).toBeVisible();
    expect(apiCalls.filter((url) => url.includes('00000000-0000'))).toEqual([]);
  });
});

test('a kitchen named like a script stays text in the rendered page', async ({ page }) => {
  const hostile = '</script><script>alert(1)</script>';
  const { kitchen } = await createKitchenWithOwner(hostile, { dishes: [{ item: hostile }] });
  page.on('dialog', (dialog) => {
    throw new Error(`a script ran: ${dialog.message()}`);
  });
  await page.goto(`/KitchenMenu/${kitchen.uid}`);
  await expect(page.getByRole('heading', { level: 1, name: hostile })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: hostile })).toBeVisible();
  await page.goto('/');
  await expect(page.getByTestId('kitchen-card').filter({ hasText: hostile }).first()).toBeVisible();
});

test.describe('before the app has taken the page over', () => {
  /** Holds the app's entry module (the last one boot runs): the page is painted, and the app not there yet. */
  async function holdApp(page: Page) {
    const held: Route[] = [];
    await page.route(/\/assets\/index-[^/]+\.js$/, (route) => void held.push(route));
    return {
      arrived: () => expect.poll(() => held.length).toBe(1),
      release: () => Promise.all(held.splice(0).map((route) => route.continue())),
    };
  }

  test('typing a search and ticking filters count once it has, each change on top of the one before', async ({
    page,
  }) => {
    const word = `early${Date.now()}`;
    await createKitchen(`Halal ${word}`, {
      dishes: [{ item: `${word} shawarma`, dietary: ['halal', 'dairy-free'] }],
    });
    await createKitchen(`Plain ${word}`, { dishes: [{ item: `${word} pork buns` }] });
    const app = await holdApp(page);
    await page.goto('/');
    await app.arrived();
    await page.getByLabel('Search kitchens and dishes').fill(word);
    const diets = page.getByRole('group', { name: 'Dietary needs' });
    await diets.getByText('Halal', { exact: true }).click();
    await diets.getByText('Dairy-free', { exact: true }).click();
    await expect(page.getByRole('checkbox', { name: 'Halal' })).toBeChecked();
    await app.release();
    await expect(page).toHaveURL(new RegExp(`q=${word}`));
    await expect(page).toHaveURL(/diet=halal(%2C|,)dairy-free/);
    await expect(page.getByTestId('kitchen-card')).toHaveText([new RegExp(`Halal ${word}`)]);
  });

  test("a tap on a dish's '+' adds it once it has", async ({ page }) => {
    const { kitchen } = await createKitchenWithOwner(`Early Taps ${Date.now()}`, {
      dishes: [{ item: 'Idli' }],
    });
    const app = await holdApp(page);
    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    await app.arrived();
    await page.getByRole('button', { name: 'Add Idli to cart' }).click();
    await page.getByRole('button', { name: 'Add Idli to cart' }).click();
    await expect(page.getByRole('link', { name: 'Cart (0)' })).toBeVisible();
    await app.release();
    await expect(page.getByRole('link', { name: 'Cart (2)' })).toBeVisible();
  });
});

test("a tap on another kitchen's '+' before the app is there still asks before starting a new cart", async ({
  page,
}) => {
  const first = await createKitchenWithOwner(`Early Cart A ${Date.now()}`, { dishes: [{ item: 'Puto' }] });
  const second = await createKitchenWithOwner(`Early Cart B ${Date.now()}`, {
    dishes: [{ item: 'Halo-halo' }],
  });
  await page.goto(`/KitchenMenu/${first.kitchen.uid}`);
  await page.getByRole('button', { name: 'Add Puto to cart' }).click();
  await expect(page.getByRole('link', { name: 'Cart (1)' })).toBeVisible();
  const held: Route[] = [];
  await page.route(/\/assets\/index-[^/]+\.js$/, (route) => void held.push(route));
  await page.goto(`/KitchenMenu/${second.kitchen.uid}`);
  await expect.poll(() => held.length).toBe(1);
  await page.getByRole('button', { name: 'Add Halo-halo to cart' }).click();
  await Promise.all(held.splice(0).map((route) => route.continue()));
  // The tap, replayed once the cart from this tab has been read, finds it holding another kitchen's dish.
  await expect(page.getByRole('dialog', { name: 'Start a new cart?' })).toBeVisible();
  await page.getByRole('button', { name: 'Start a new cart' }).click();
  await expect(page.getByRole('link', { name: 'Cart (1)' })).toBeVisible();
});

test('links in the parts the app does not hydrate (the top bar, the introduction) are followed without a page load', async ({
  page,
}) => {
  /** The landing page as the server sent it, hydrated, with a mark that a new page load would wipe. */
  const landed = async () => {
    const stream = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/live');
    await page.goto('/');
    await stream;
    await page.evaluate(() => Object.assign(window, { samePage: true }));
  };
  const samePage = () => page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage === true);
  await landed();
  await page.getByRole('link', { name: 'Register your kitchen' }).click();
  await expect(page).toHaveURL(/\/AdminSignIn$/);
  await expect(page.getByRole('heading', { name: 'Please Register Yourself' })).toBeVisible();
  expect(await samePage()).toBe(true);

  await landed();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Kitchen Register' }).click();
  await expect(page).toHaveURL(/\/AdminSignIn$/);
  await expect(nav.getByRole('link', { name: 'Kitchen Register' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page');
  expect(await samePage()).toBe(true);

  // A link within the page scrolls, and a link with a modifier key stays the browser's (a new window).
  await landed();
  await page.getByRole('link', { name: 'Browse kitchens' }).click();
  await expect(page).toHaveURL(/\/#kitchens-heading$/);
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    nav.getByRole('link', { name: 'Order' }).click({ modifiers: ['Shift'] }),
  ]);
  await popup.close();
  await expect(page).toHaveURL(/\/#kitchens-heading$/);
  expect(await samePage()).toBe(true);
});

test("a rendered page's first paint is on the screen before the app's modules are asked for", async ({
  page,
}) => {
  const { kitchen } = await createKitchenWithOwner(`Painted First ${Date.now()}`, {
    dishes: [{ item: 'Puttu' }],
  });
  for (const path of ['/', `/KitchenMenu/${kitchen.uid}`]) {
    const stream = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/live');
    await page.goto(path);
    await stream;
    const { painted, modules } = await page.evaluate(() => ({
      // When the paint was shown (paint timing reports when the frame was presented, not when it was drawn).
      painted: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      modules: performance
        .getEntriesByType('resource')
        .filter((entry) => /\/assets\/(?!boot-)[^/]+\.js$/.test(entry.name))
        .map((entry) => entry.startTime),
    }));
    expect(painted).toBeGreaterThan(0);
    expect(modules.length).toBeGreaterThan(0);
    // Asked for before it, their bytes would share a slow phone's network with the pictures of that paint.
    expect(Math.min(...modules)).toBeGreaterThanOrEqual(painted ?? Infinity);
  }
});
