import type { Page } from '@playwright/test';
import { ALLERGEN_DESCRIPTIONS } from '../../src/shared/allergen-descriptions.js';
import { ALLERGEN_SET } from '../../src/shared/allergen-set.js';
import { createKitchenWithOwner, placeOrderAs, sessionCookieAs } from './db.js';
import { expect, test } from './fixtures.js';

/**
 * Every screen in the pseudo-locale (en-XA: each message of ours accented, 40 % longer and bracketed ⟦…⟧), at a
 * phone's 390 px: any text left in plain English is a text that does not go through a message, and any bracketed
 * text cut off by its box is a text that will not fit in a longer language.
 */
test.describe.configure({ mode: 'parallel' });
test.use({
  viewport: { width: 390, height: 844 },
  // The page of a kitchen that does not exist answers 404, which the browser logs.
  expectedErrorUrls: [/\/KitchenMenu\/00000000-/],
});

interface Finding {
  untranslated: string[];
  clipped: string[];
  pageWiderThanScreen: boolean;
}

/** What the page shows that is neither ours translated nor the data given (names, addresses, dishes…). */
async function inspect(page: Page, data: string[]): Promise<Finding> {
  return page.evaluate((known) => {
    const visible = (element: Element) => {
      const style = getComputedStyle(element);
      return style.visibility !== 'hidden' && style.display !== 'none' && element.getClientRects().length > 0;
    };
    const plainEnglish = (text: string) => {
      let rest = text.replace(/⟦[^⟧]*(⟧|$)/g, ' ').replace(/^[^⟦]*⟧/, ' ');
      for (const value of known) rest = rest.split(value).join(' ');
      // Email addresses and links are data too.
      rest = rest.replace(/\S+@\S+|https?:\/\/\S*/g, ' ');
      // A date and a time as the pseudo-locale's Intl writes them (as American English: 'Nov 26, 2026', '11:15 AM').
      rest = rest.replace(
        /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2}, \d{4}/g,
        ' ',
      );
      rest = rest.replace(/\d{1,2}:\d{2}\s?[AP]M/g, ' ');
      // Numbers, money, times and punctuation are not words.
      return /[A-Za-z]{2,}/.test(rest) ? text.trim() : undefined;
    };
    const untranslated = new Set<string>();
    const root = document.getElementById('root');
    if (!root) return { untranslated: ['no #root'], clipped: [], pageWiderThanScreen: false };
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !visible(parent) || parent.closest('select, script, style, [aria-hidden="true"]'))
        continue;
      // What people wrote in the chat (other tests' messages too), its author and its time, and what operators wrote
      // in their log (other tests' reasons too): data.
      if (
        parent.closest(
          '[data-testid="chat-message"] p, [data-testid="chat-message"] time, [data-testid="operator-note"]',
        )
      )
        continue;
      const found = plainEnglish(node.textContent ?? '');
      if (found) untranslated.add(found);
    }
    for (const element of root.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')) {
      if (element.closest('[aria-hidden="true"]')) continue;
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name);
        const found = value ? plainEnglish(value) : undefined;
        if (found) untranslated.add(`${name}: ${found}`);
      }
    }
    const clipped = new Set<string>();
    for (const element of root.querySelectorAll('*')) {
      if (!visible(element) || !(element.textContent ?? '').includes('⟦')) continue;
      // Text for screen readers only is clipped to nothing on purpose.
      if (element.clientWidth <= 1 || element.closest('.mantine-VisuallyHidden-root')) continue;
      const style = getComputedStyle(element);
      const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      if (clips && element.scrollWidth > element.clientWidth + 1 && element.children.length === 0)
        clipped.add((element.textContent ?? '').trim().slice(0, 80));
    }
    return {
      untranslated: [...untranslated],
      clipped: [...clipped],
      pageWiderThanScreen: document.documentElement.scrollWidth > window.innerWidth + 1,
    };
  }, data);
}

let kitchen: ReturnType<typeof makeKitchen> | undefined;
async function makeKitchen() {
  const cook = await createKitchenWithOwner(`Pseudo Kitchen ${Date.now()}`, {
    category: 'Fusion',
    dishes: [{ item: 'Masala dosa' }, { item: 'Sambar vada' }],
  });
  await placeOrderAs(
    cook.kitchen.uid,
    cook.items.map((i) => i.id),
  );
  return cook;
}
const pseudoKitchen = () => (kitchen ??= makeKitchen());

const screens: { role?: 'kitchen' | 'customer' | 'operator'; path: string }[] = [
  { path: '/' },
  { path: '/KitchenMenu/{id}' },
  { path: '/CustomerSignIn' },
  { path: '/AdminSignIn' },
  { path: '/KitchenMenu/00000000-0000-4000-8000-000000000000' },
  { role: 'customer', path: '/ShoppingCart' },
  { role: 'customer', path: '/CustomerOrderStatus' },
  { role: 'customer', path: '/CustomerOrders' },
  { role: 'customer', path: '/Chatroom' },
  { role: 'kitchen', path: '/KitchenRegister' },
  { role: 'kitchen', path: '/MenuDashboard' },
  { role: 'kitchen', path: '/KitchenOrders' },
  { role: 'kitchen', path: '/Earnings' },
  { role: 'operator', path: '/Operator' },
];

for (const { role, path } of screens) {
  test(`${path} (${role ?? 'visitor'}) in the pseudo-locale: nothing untranslated, nothing clipped, at 390 px`, async ({
    browser,
    baseURL,
  }) => {
    // One kitchen (with an order) per worker: each kitchen added pushes the landing page's others down.
    const cook = await pseudoKitchen();
    const stamp = `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
    const customerEmail = `pseudo-${stamp}@e2e.test`;
    const kitchens = (await (await fetch(`${baseURL}/api/kitchens`)).json()) as {
      name: string;
      category: string;
      address: string;
      uid: string;
    }[];
    const menus = await Promise.all(
      kitchens.map(
        async (k) =>
          (await (await fetch(`${baseURL}/api/kitchens/${k.uid}/menu`)).json()) as {
            item: string;
            wait: string;
          }[],
      ),
    );
    // The data the screens show: written by people, not by us.
    const data = [
      ...kitchens.flatMap((k) => [k.name, k.category, k.address]),
      ...menus.flat().flatMap((m) => [m.item, m.wait]),
      'E2E Person',
      'E2E Cook',
      'E2E Customer',
      'E2E New Cook',
      '1 Road',
      'HomeCooked',
    ].sort((a, b) => b.length - a.length);

    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name: 'lang', value: 'en-XA', url: baseURL ?? '' }]);
    if (role === 'kitchen') await context.addCookies([cook.cookie]);
    if (role === 'customer') await context.addCookies([await sessionCookieAs(customerEmail, 'customer')]);
    if (role === 'operator')
      await context.addCookies([await sessionCookieAs('operator@e2e.test', 'operator')]);
    const page = await context.newPage();
    await page.goto(path.replace('{id}', cook.kitchen.uid));
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
    await expect(page.locator('#root')).toContainText('⟦');
    // Loaded: no skeleton or spinner left.
    await expect(page.locator('.mantine-Skeleton-root, .mantine-Loader-root')).toHaveCount(0);
    // The allergen set's names and descriptions are data in the five languages (ADR 20), not catalogue messages.
    const allergenTexts = [
      ...Object.values(ALLERGEN_SET).map((a) => a.name.en),
      ...Object.values(ALLERGEN_DESCRIPTIONS).map((d) => d.en),
    ];
    const finding = await inspect(
      page,
      [...data, ...allergenTexts].sort((a, b) => b.length - a.length),
    );
    const problems = [
      ...finding.untranslated.map((text) => `untranslated "${text}"`),
      ...finding.clipped.map((text) => `clipped "${text}"`),
      ...(finding.pageWiderThanScreen ? ['wider than the screen'] : []),
    ];
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });
}
