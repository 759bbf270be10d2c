import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { axeFindings } from './axe.js';
import { addMenuItem, signInAsCook } from './cook.js';
import { createKitchenWithOwner, customerSessionCookie } from './db.js';
import { expect, test } from './fixtures.js';
import { openAroundTheClock } from './hours.js';
import { makePicture } from '../../src/server/test/test-images.js';
import { newPerson, signInWithPopup } from './sign-in.js';

/** OPERATOR_EMAILS of the end-to-end server (tests/e2e/fixtures.ts). */
const OPERATOR = { email: 'operator@e2e.test', name: 'Olga Operator' };

/**
 * An address the fake Photon (tests/e2e/fake-photon.mjs) places in Los Angeles County, California: under
 * jurisdictions/us.yaml a MEHKO needs a permit an operator approves, and sells at most 30 meals a day.
 */
const LOS_ANGELES = '350 South Grand Avenue, Los Angeles';

/** Today in Los Angeles (the cook's browser and kitchen), as a date field takes it. */
const today = () => new Date().toLocaleDateString('en-CA', { timeZone: 'America/Los_Angeles' });

/** A small but well-formed PDF (a scan of the permit). */
const PERMIT_PDF =
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n';

/** A day a year from now, as a date field takes it (YYYY-MM-DD). */
const nextYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

/** Whether the page scrolls sideways (it must not, at any width). */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** A customer signed in through the database, at the test's width. */
async function customerPage(browser: Browser, width: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([await customerSessionCookie(`mehko-${randomUUID()}@e2e.test`)]);
  return context.newPage();
}

/** Orders of `meals` portions of one dish in all, ten to a customer, through the API (one open order each). */
async function sellMeals(browser: Browser, kitchenUid: string, itemId: string, meals: number) {
  for (let sold = 0; sold < meals; sold += 10) {
    const context = await browser.newContext();
    await context.addCookies([await customerSessionCookie(`mehko-api-${randomUUID()}@e2e.test`)]);
    const placed = await context.request.post('/api/orders', {
      data: {
        kitchenUid,
        itemIds: Array.from({ length: Math.min(10, meals - sold) }, () => itemId),
        address: '1 Olive Street, Los Angeles',
        idempotencyKey: randomUUID(),
      },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    await context.close();
  }
}

// The 31st meal's order is answered 409, an override without its reason and a change of fees too soon 400, and the
// browser logs those.
test.use({ expectedErrorUrls: [/\/api\/(orders|operator\/rule-overrides|operator\/fee-changes)$/] });

for (const width of [1280, 390]) {
  test(`a cook in California registers, adds a permit and certificate, is approved; the 31st meal of the day is refused naming the cap, at ${width} px, axe clean`, async ({
    browser,
  }) => {
    test.slow();
    const viewport = { width, height: 900 };
    const kitchenName = `Tamales de Rosa ${randomUUID().slice(0, 6)}`;
    const permit = `PR${String(Date.now()).slice(-7)}`;

    // The cook registers a kitchen at an address in Los Angeles County and adds a dish.
    const cookContext = await browser.newContext({ viewport, timezoneId: 'America/Los_Angeles' });
    const cook = await cookContext.newPage();
    await signInAsCook(cook, newPerson('Rosa Cook'));
    await expect(cook.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
    await cook.getByLabel('Name of Kitchen').fill(kitchenName);
    await cook.getByRole('combobox', { name: 'Category' }).fill('Mexican');
    await cook.getByLabel('Address').fill(LOS_ANGELES);
    await cook.getByLabel('Image of your kitchen link').fill('https://images.invalid/kitchen.png');
    await cook.getByRole('button', { name: 'Next Step' }).click();
    await openAroundTheClock(cook);
    await addMenuItem(cook, 'Tamales', '6', '20 min');

    // Its dashboard says it waits for approval, and leads to 'Rules for your kitchen'.
    await cook.goto('/MenuDashboard');
    const card = cook.getByRole('region', { name: 'Rules for your kitchen' });
    await expect(card.getByText('Waiting for approval')).toBeVisible();
    await card.getByRole('link', { name: 'See which rules apply and why' }).click();
    await expect(cook.getByRole('heading', { name: 'Rules for your kitchen', level: 1 })).toBeVisible();
    await expect(
      cook.getByText(
        'Your address is in Los Angeles County, California, US, so the rules of Los Angeles County apply.',
      ),
    ).toBeVisible();
    await expect(cook.getByRole('row', { name: 'Meals a day 30' })).toBeVisible();
    await expect(cook.getByRole('row', { name: 'Permit MEHKO health permit' })).toBeVisible();

    // The permit number and the food safety certificate, each with the day it expires.
    const papers = cook.getByRole('region', { name: 'Your permit and certificates' });
    await expect(papers.getByText('Required here: Permit number, Food safety certificate')).toBeVisible();
    await expect(papers.getByRole('status', { name: 'Paused: add your permit' })).toBeVisible();
    // The profile asks for the permit number on the menu page: not shown yet, and what to do.
    const onMenu = cook.getByRole('row', { name: /^Permit number on your menu page/ });
    await expect(onMenu).toContainText('Required here; not shown yet: add your permit number below');
    await papers.getByRole('textbox', { name: 'Number', exact: true }).fill(permit);
    await papers.getByLabel('Expires on').fill(nextYear());
    await papers.getByRole('button', { name: 'Add document' }).click();
    await expect(papers.getByRole('row', { name: new RegExp(`Permit number ${permit}`) })).toBeVisible();
    await expect(onMenu).toContainText(`Required here; shown now: ${permit}`);
    await papers.getByRole('combobox', { name: 'Document' }).click();
    await cook.getByRole('option', { name: 'Food safety certificate' }).click();
    await papers.getByRole('textbox', { name: 'Number', exact: true }).fill('FSM-448812');
    await papers.getByLabel('Expires on').fill(nextYear());
    // With a photo of the certificate: private, for the cook and operators only.
    const chooser = cook.waitForEvent('filechooser');
    await papers.getByLabel('Photo or PDF', { exact: true }).click();
    await (
      await chooser
    ).setFiles({
      name: 'certificate.jpg',
      mimeType: 'image/jpeg',
      buffer: await makePicture('jpeg', 640, 480),
    });
    await papers.getByRole('button', { name: 'Add document' }).click();
    const certificate = papers.getByRole('row', { name: /Food safety certificate FSM-448812/ });
    await expect(certificate.getByRole('link', { name: 'View the photo' })).toBeVisible();
    const photoUrl = await certificate.getByRole('link', { name: 'View the photo' }).getAttribute('href');
    await expect(papers.getByRole('status')).toBeHidden();
    // A PDF of the permit, attached to the permit added earlier (the same document, now with its file).
    const permitChooser = cook.waitForEvent('filechooser');
    await papers.getByLabel('Attach a photo or PDF to Permit number').click();
    await (
      await permitChooser
    ).setFiles({
      name: 'permit.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(PERMIT_PDF, 'latin1'),
    });
    const permitRow = papers.getByRole('row', { name: new RegExp(`Permit number ${permit}`) });
    await expect(permitRow.getByRole('link', { name: 'View the PDF' })).toBeVisible();
    const pdfUrl = await permitRow.getByRole('link', { name: 'View the PDF' }).getAttribute('href');
    await expect(papers.getByRole('row', { name: /^Permit number/ })).toHaveCount(1);
    // A helper, with the day their food handler card is due: 30 days after they started (the profile's days).
    const helpers = cook.getByRole('region', { name: 'Your helpers' });
    await expect(helpers).toContainText('Each helper needs a Food handler card within 30 days of starting.');
    await expect(helpers.getByRole('link', { name: /§113948/ })).toBeVisible();
    await helpers.getByLabel('Helper’s name').fill('Luis');
    await helpers.getByLabel('Started on').fill(today());
    await helpers.getByRole('button', { name: 'Add helper' }).click();
    await expect(helpers.getByRole('row', { name: /^Luis/ })).toContainText('Not added yet: add it above by');
    await cook.screenshot({ path: test.info().outputPath(`kitchen-rules-${width}.png`), fullPage: true });
    await expect(papers.getByRole('status')).toBeHidden();
    expect(await overflows(cook)).toBe(false);
    expect(await axeFindings(cook)).toEqual([]);

    // An operator sees the kitchen with its papers, and approves it.
    const operatorContext = await browser.newContext({ viewport });
    const operator = await operatorContext.newPage();
    await operator.goto('/Operator');
    await signInWithPopup(operator, operator.getByRole('button', { name: 'Sign in with Google' }), OPERATOR);
    const waiting = operator.getByRole('listitem', { name: kitchenName });
    await expect(waiting).toContainText(`Permit number: ${permit}`);
    await expect(waiting).toContainText('Food safety certificate: FSM-448812');
    await expect(waiting.getByRole('link', { name: 'View the photo' })).toHaveAttribute('href', photoUrl!);
    await expect(waiting.getByRole('link', { name: 'View the PDF' })).toHaveAttribute('href', pdfUrl!);
    const seen = await operator.request.get(photoUrl!);
    expect(seen.status()).toBe(200);
    expect(seen.headers()['content-type']).toBe('image/webp');
    await expect(waiting).toContainText('rules of Los Angeles County');
    expect(await axeFindings(operator)).toEqual([]);
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await expect(waiting).toBeHidden();
    await operatorContext.close();

    // Listed: the cook no longer waits.
    await cook.goto('/MenuDashboard');
    await expect(card.getByText('Today: 0 of 30 meals')).toBeVisible();
    await expect(card.getByText('Waiting for approval')).toBeHidden();
    const { uid: kitchenUid } = (await (await cook.request.get('/api/kitchen')).json()) as { uid: string };
    const menu = (await (await cook.request.get(`/api/kitchens/${kitchenUid}/menu`)).json()) as {
      id: string;
    }[];
    const tamales = menu[0]!.id;
    await cookContext.close();

    // The last customer has the dish in the cart while the day's other meals sell: 29 through the API...
    const last = await customerPage(browser, width);
    // The certificate's photo is no customer's to see.
    expect((await last.request.get(photoUrl!)).status()).toBe(404);
    await last.goto(`/KitchenMenu/${kitchenUid}`);
    await expect(last.getByText(`Permit number: ${permit}`)).toBeVisible();
    await expect(last.getByText('Fully booked today')).toBeHidden();
    await last.getByRole('button', { name: 'Add Tamales to cart' }).click();
    await expect(last.getByRole('link', { name: 'Cart (1)' })).toBeVisible();
    await sellMeals(browser, kitchenUid, tamales, 29);

    // ...and the 30th on the screen: it sells.
    const thirtieth = await customerPage(browser, width);
    await thirtieth.goto(`/KitchenMenu/${kitchenUid}`);
    await expect(thirtieth.getByText(`Permit number: ${permit}`)).toBeVisible();
    await expect(thirtieth.getByText('Fully booked today')).toBeHidden();
    await thirtieth.getByRole('button', { name: 'Add Tamales to cart' }).click();
    await thirtieth.getByRole('link', { name: 'Cart (1)' }).click();
    await thirtieth.getByRole('combobox', { name: 'Delivery address' }).fill('2 Hill Street, Los Angeles');
    await thirtieth.getByRole('button', { name: 'Submit order' }).click();
    await expect(thirtieth.getByText('Your Order is sent')).toBeVisible();

    // The 31st is refused, naming the cap.
    await last.getByRole('link', { name: 'Cart (1)' }).click();
    await last.getByRole('combobox', { name: 'Delivery address' }).fill('3 Main Street, Los Angeles');
    await last.getByRole('button', { name: 'Submit order' }).click();
    const refusal = last.getByRole('alert').filter({ hasText: 'Your order was not sent' }).first();
    await expect(refusal).toContainText(
      `Daily meal cap reached: ${kitchenName} may sell 30 meals a day under the rules here, and has 0 left today.`,
    );
    expect(await overflows(last)).toBe(false);
    expect(await axeFindings(last)).toEqual([]);

    // The menu says so before anyone else tries, and still shows the permit number.
    await last.goto(`/KitchenMenu/${kitchenUid}`);
    await expect(last.getByText('Fully booked today')).toBeVisible();
    await expect(last.getByText(`Permit number: ${permit}`)).toBeVisible();
    expect(await overflows(last)).toBe(false);
    expect(await axeFindings(last)).toEqual([]);
  });
}

test("an operator overrides a kitchen's meals a day with a reason and announces a change of fees 30 days ahead, at 390 px, axe clean", async ({
  browser,
}) => {
  test.slow();
  const { kitchen } = await createKitchenWithOwner(`Override ${randomUUID().slice(0, 6)}`);
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto('/Operator');
  await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), OPERATOR);
  await page.getByRole('tab', { name: 'Rules and fees' }).click();
  const caps = page.getByRole('table', { name: 'Caps by place' });
  await expect(
    caps.getByRole('row', { name: /^Los Angeles County us\/ca\/los-angeles 30 90 \$100,000$/ }),
  ).toBeVisible();

  // A kitchen's own value: the reason is required.
  const form = page.getByRole('region', { name: 'Override a value' });
  await form.getByText('One kitchen').click();
  await form.getByLabel('Kitchen id').fill(kitchen.uid);
  await form.getByRole('textbox', { name: 'New value' }).fill('12');
  await form.getByRole('button', { name: 'Override' }).click();
  await expect(form.getByText('Say why the value is overridden')).toBeVisible();
  await form.getByLabel('Reason').fill('Inspected: a small kitchen');
  await form.getByRole('button', { name: 'Override' }).click();
  const own = page.getByRole('listitem', { name: kitchen.name });
  await expect(own).toContainText(
    'Meals a day: 12, because “Inspected: a small kitchen” (operator@e2e.test,',
  );
  expect(await overflows(page)).toBe(false);
  expect(await axeFindings(page)).toEqual([]);

  // A change of fees: not sooner than 30 days ahead.
  const fees = page.getByRole('region', { name: 'Fees' });
  await fees.getByLabel('New commission (%)').fill('12.5');
  await fees
    .getByLabel('Applies from')
    .fill(new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10));
  await fees.getByRole('button', { name: 'Announce the change' }).click();
  await expect(fees.getByText(/^A change of fees must be announced 30 days ahead/)).toBeVisible();
  await fees
    .getByLabel('Applies from')
    .fill(new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10));
  await fees.getByRole('button', { name: 'Announce the change' }).click();
  await expect(
    fees
      .getByRole('list', { name: 'Changes announced' })
      .getByText(/^12\.5 % from .*, announced by operator@e2e\.test on /),
  ).toBeVisible();
  expect(await overflows(page)).toBe(false);
  expect(await axeFindings(page)).toEqual([]);
});
