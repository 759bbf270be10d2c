import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { countOrders, customerSessionCookie, setOpenOrderStatus } from './db.js';
import { axeFindings } from './axe.js';
import { expect, test } from './fixtures.js';
import { newPerson, signInWithPopup } from './sign-in.js';

const newEmail = () => `customer-${randomUUID()}@e2e.test`;

/** Signs a customer in through the database (tests of the cart, not of signing in). */
async function signInAsCustomer(page: Page, email = newEmail()) {
  await page.context().addCookies([await customerSessionCookie(email)]);
  return email;
}

async function openKitchen(page: Page, name: RegExp) {
  await page.goto('/');
  await page.getByRole('link', { name }).click();
  await expect(page).toHaveURL(/\/KitchenMenu\/[0-9a-f-]{36}$/);
}

test.describe('a kitchen menu and the cart', () => {
  test('shows the kitchen, its hours and live menu; "+" fills the cart, which survives a reload', async ({
    page,
  }) => {
    await openKitchen(page, /Lola's Kusina/);
    await expect(page.getByRole('heading', { level: 1, name: "Lola's Kusina" })).toBeVisible();
    await expect(page.getByRole('img', { name: "Lola's Kusina kitchen" })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Full Menu' })).toBeVisible();
    // The demo kitchens are open around the clock (a kitchen without hours of its own: availability.spec.ts).
    await expect(page.getByTestId('kitchen-hours')).toContainText('Open 24 hours');
    await expect(page.getByTestId('kitchen-hours')).toContainText('Open now');
    const adobo = page.getByTestId('menu-item').filter({ hasText: 'Chicken Adobo' });
    await expect(adobo).toContainText('$11.00');
    await expect(adobo).toContainText('Wait time: 30 min');
    await expect(adobo.getByRole('img', { name: 'Chicken Adobo' })).toBeVisible();

    const cart = page.getByRole('link', { name: /^Cart/ });
    await expect(cart).toHaveText('Cart (0)');
    await page.getByRole('button', { name: 'Add Chicken Adobo to cart' }).click();
    await page.getByRole('button', { name: 'Add Chicken Adobo to cart' }).click();
    await page.getByRole('button', { name: 'Add Ube Halaya to cart' }).click();
    await expect(cart).toHaveText('Cart (3)');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: "Lola's Kusina" })).toBeVisible();
    await expect(cart).toHaveText('Cart (3)');
    expect(await axeFindings(page)).toEqual([]);

    // Not signed in: the cart asks to sign in first.
    await cart.click();
    await expect(page).toHaveURL('/CustomerSignIn');
    await expect(page.getByRole('heading', { name: 'Please Sign In to check out' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeVisible();
  });

  test.describe('an unknown kitchen', () => {
    // The page itself answers 404 (rendered on the server: tests/e2e/ssr.spec.ts), and the browser logs that.
    test.use({ expectedErrorUrls: [/\/KitchenMenu\/[^/]+$/] });
    test('shows a clear not-found page', async ({ page }) => {
      for (const id of [randomUUID(), 'not-a-kitchen']) {
        const response = await page.goto(`/KitchenMenu/${id}`);
        expect(response?.status()).toBe(404);
        await expect(page.getByRole('heading', { name: 'Kitchen not found' })).toBeVisible();
        await expect(page.getByRole('link', { name: 'Back to the kitchens' })).toBeVisible();
      }
    });
  });

  test('a cart holds one kitchen: adding from another asks before starting a new cart', async ({ page }) => {
    await signInAsCustomer(page);
    await openKitchen(page, /Casa Lupita/);
    const cart = page.getByRole('link', { name: /^Cart/ });
    await page.getByRole('button', { name: 'Add Churros to cart' }).click();
    // In the cart before leaving (a tap while the page was still hydrating is made once it has).
    await expect(cart).toHaveText('Cart (1)');
    await openKitchen(page, /Nonna Rosa/);
    await expect(cart).toHaveText('Cart (1)');

    await page.getByRole('button', { name: 'Add Lasagna to cart' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a new cart?' });
    await expect(dialog).toContainText('Casa Lupita');
    await dialog.getByRole('button', { name: 'Keep my cart' }).click();
    await expect(dialog).toBeHidden();
    await expect(cart).toHaveText('Cart (1)');

    await page.getByRole('button', { name: 'Add Lasagna to cart' }).click();
    await dialog.getByRole('button', { name: 'Start a new cart' }).click();
    await expect(cart).toHaveText('Cart (1)');
    await cart.click();
    await expect(page).toHaveURL('/ShoppingCart');
    const lines = page.getByRole('list', { name: 'Items in your cart' });
    await expect(lines.getByRole('listitem')).toHaveCount(1);
    await expect(lines).toContainText('Lasagna');
    await expect(lines).not.toContainText('Churros');
  });
});

test.describe('checkout', () => {
  test('totals, removing, refusing an empty cart or address, a typed address, and the order afterwards', async ({
    page,
  }) => {
    const email = await signInAsCustomer(page);
    await page.goto('/ShoppingCart');
    await expect(page.getByRole('heading', { name: 'Shopping Cart' })).toBeVisible();
    await expect(page.getByText('Your cart is empty.')).toBeVisible();
    await expect(page.getByTestId('cart-total')).toHaveText('$10.45');
    await page.getByRole('button', { name: 'Submit order' }).click();
    await expect(page.getByRole('alert')).toContainText('Your cart is empty');

    await openKitchen(page, /Seoul Kitchen at Home/);
    await page.getByRole('button', { name: 'Add Bibimbap to cart' }).click();
    await page.getByRole('button', { name: 'Add Japchae to cart' }).click();
    await page.getByRole('button', { name: 'Add Japchae to cart' }).click();
    await page.getByRole('link', { name: 'Cart (3)' }).click();
    await expect(page).toHaveURL('/ShoppingCart');
    await expect(page.getByText('Delivery fee')).toBeVisible();
    await expect(page.getByText('$2.99')).toBeVisible();
    await expect(page.getByText('Fees and Estimated Tax')).toBeVisible();
    await expect(page.getByText('$7.46')).toBeVisible();
    await expect(page.getByText('© OpenStreetMap contributors')).toBeVisible();
    // 11.75 + 9.50 + 9.50 + 10.45
    await expect(page.getByTestId('cart-total')).toHaveText('$41.20');
    // One row per dish, with how many: '−' takes one away.
    const lines = page.getByRole('list', { name: 'Items in your cart' });
    await expect(lines.getByRole('listitem')).toHaveCount(2);
    await expect(page.getByRole('group', { name: 'Quantity of Japchae' })).toContainText('2');
    await page.getByRole('button', { name: 'One fewer Japchae' }).click();
    await expect(page.getByTestId('cart-total')).toHaveText('$31.70');
    expect(await axeFindings(page)).toEqual([]);

    await page.getByRole('button', { name: 'Submit order' }).click();
    await expect(page.getByText('Delivery address is required')).toBeVisible();
    expect(await page.getByText('Your Order is sent').count()).toBe(0);

    const address = page.getByRole('combobox', { name: 'Delivery address' });
    await address.fill('Downing');
    await expect(
      page.getByRole('option', { name: '10 Downing Street, London, SW1A 2AA, United Kingdom' }),
    ).toBeVisible();
    // An address nobody suggests is still an address.
    await page.getByRole('combobox', { name: 'Delivery address' }).fill('Flat 3, 17 Nowhere Lane, Smalltown');
    await page.getByRole('button', { name: 'Submit order' }).click();
    await expect(page.getByText('Your Order is sent')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Status of your order' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit order' })).toBeHidden();
    await expect(page.getByRole('list', { name: 'Items in your cart' })).toBeHidden();

    // A placed order is not edited from here: removing asks, and changes nothing.
    const ordered = page.getByRole('list', { name: 'Items of your order' });
    await expect(ordered.getByRole('listitem')).toHaveCount(2);
    await ordered.getByRole('button', { name: 'Remove Bibimbap' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('You want to update the order. Say yes or no');
    await dialog.getByRole('button', { name: 'No' }).click();
    await expect(dialog).toBeHidden();
    await expect(ordered.getByRole('listitem')).toHaveCount(2);

    // The cart was emptied; coming back to it leads to the order in progress.
    await page.getByRole('link', { name: 'View Your order Status on this link' }).click();
    await expect(page).toHaveURL('/CustomerOrderStatus');
    await expect(
      page.getByRole('heading', { name: 'Order Status from Seoul Kitchen at Home' }),
    ).toBeVisible();
    await expect(page.getByText('Flat 3, 17 Nowhere Lane, Smalltown')).toBeVisible();
    await expect(page.getByText('$31.70')).toBeVisible();
    await page.goto('/ShoppingCart');
    await expect(page).toHaveURL('/CustomerOrderStatus');
    await setOpenOrderStatus(email, 'cooking');
    await expect(page.getByTestId('order-status')).toHaveText('cooking');
  });

  test('the status page sends a stranger to sign in and a customer without an order home', async ({
    page,
  }) => {
    await page.goto('/CustomerOrderStatus');
    await expect(page).toHaveURL('/CustomerSignIn');
    await page.goto('/ShoppingCart');
    await expect(page).toHaveURL('/CustomerSignIn');
    await signInAsCustomer(page);
    await page.goto('/CustomerOrderStatus');
    await expect(page).toHaveURL('/');
  });
});

test('the whole journey: menu, sign in in the popup, a suggested address, the order and its live status', async ({
  page,
}) => {
  const person = newPerson('Journey Customer');
  await page.goto('/');
  await page.getByRole('link', { name: /Asha's Tiffin/ }).click();
  await page.getByRole('button', { name: 'Add Paneer Butter Masala to cart' }).click();
  await page.getByRole('button', { name: 'Add Paneer Butter Masala to cart' }).click();
  await page.getByRole('link', { name: 'Cart (2)' }).click();
  await expect(page).toHaveURL('/CustomerSignIn');

  await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), person);
  await expect(page).toHaveURL('/ShoppingCart');
  await expect(page.getByRole('list', { name: 'Items in your cart' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('group', { name: 'Quantity of Paneer Butter Masala' })).toContainText('2');
  await expect(page.getByTestId('cart-total')).toHaveText('$34.45'); // 12.00 * 2 + 10.45

  await page.getByRole('combobox', { name: 'Delivery address' }).fill('221B Baker');
  const suggestion = page.getByRole('option', { name: '221B Baker Street, London, NW1 6XE, United Kingdom' });
  await suggestion.click();
  await expect(page.getByRole('combobox', { name: 'Delivery address' })).toHaveValue(
    '221B Baker Street, London, NW1 6XE, United Kingdom',
  );

  await page.getByRole('button', { name: 'Submit order' }).dblclick();
  await expect(page.getByText('Your Order is sent')).toBeVisible();
  expect(await countOrders(person.email)).toBe(1);
  await page.getByRole('link', { name: 'View Your order Status on this link' }).click();
  await expect(page.getByRole('heading', { name: "Order Status from Asha's Tiffin" })).toBeVisible();
  await expect(page.getByText('Thank you for ordering from our kitchen.')).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('recieved');
  expect(await axeFindings(page)).toEqual([]);

  await setOpenOrderStatus(person.email, 'Out for delivery');
  await expect(page.getByTestId('order-status')).toHaveText('Out for delivery');
});
