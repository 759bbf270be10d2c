import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { upsertUser } from '../../src/server/identity/users.js';
import { chatMessages } from '../../src/server/db/schema.js';
import { ChangeBus } from '../../src/server/live/bus.js';
import { mutate } from '../../src/server/events/mutate.js';
import { reactions } from '../../src/server/reactions.js';
import { e2eDatabase } from './db.js';
import { axeFindings } from './axe.js';
import { expect, test } from './fixtures.js';
import { newPerson, signInWithPopup } from './sign-in.js';

declare global {
  interface Window {
    /** Counts of the chat stream's opens and closes, recorded by the init script below. */
    __chatStream?: { opens: number; closes: number };
  }
}

/** Counts EventSource connections opened and closed, so a test can see the stream drop and come back. */
function watchEventSources() {
  const Native = window.EventSource;
  const counts = { opens: 0, closes: 0 };
  window.__chatStream = counts;
  window.EventSource = class extends Native {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      this.addEventListener('open', () => counts.opens++);
    }
    override close() {
      counts.closes++;
      super.close();
    }
  };
}

/** This process holds no live streams; the server hears of our writes through the database's notification. */

interface Chatter {
  context: BrowserContext;
  page: Page;
  name: string;
}

async function openChat(browser: Browser, label: string): Promise<Chatter> {
  const context = await browser.newContext();
  await context.addInitScript(watchEventSources);
  const page = await context.newPage();
  const person = newPerson(`${label} ${randomUUID().slice(0, 8)}`);
  await page.goto('/Chatroom');
  await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), person);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect(page.getByText(`Signed in as ${person.name}`)).toBeVisible();
  return { context, page, name: person.name };
}

const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const messages = (page: Page) => page.getByTestId('chat-message');
const messageWith = (page: Page, text: string) => messages(page).filter({ hasText: text });

async function say(page: Page, text: string) {
  await input(page).fill(text);
  await input(page).press('Enter');
  await expect(input(page)).toHaveValue('');
}

test.describe('chat room', () => {
  test('asks a visitor who is not signed in to sign in', async ({ page }) => {
    await page.goto('/Chatroom');
    await expect(page.getByRole('heading', { name: 'Chat room' })).toBeVisible();
    await expect(page.getByText(/Sign in to read the conversation/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', '/');
  });

  test('two users see each other live; own and received messages look different', async ({ browser }) => {
    const ann = await openChat(browser, 'Ann');
    const bob = await openChat(browser, 'Bob');
    await expect(ann.page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
    await expect(ann.page.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', '/');

    const fromAnn = `Hello from Ann ${randomUUID()}`;
    await say(ann.page, fromAnn);
    await expect(messageWith(ann.page, fromAnn)).toHaveAttribute('data-own', 'true');
    await expect(messageWith(bob.page, fromAnn)).toHaveAttribute('data-own', 'false');
    await expect(messageWith(bob.page, fromAnn)).toContainText(ann.name);

    const fromBob = `Hi Ann, Bob here ${randomUUID()}`;
    await input(bob.page).fill(fromBob);
    await bob.page.getByRole('button', { name: 'Send' }).click();
    await expect(messageWith(ann.page, fromBob)).toHaveAttribute('data-own', 'false');
    await expect(messageWith(bob.page, fromBob)).toHaveAttribute('data-own', 'true');

    // Own messages sit on the right in their own colour; received ones on the left.
    const own = messageWith(ann.page, fromAnn);
    const received = messageWith(ann.page, fromBob);
    const [ownBox, receivedBox] = await Promise.all([own.boundingBox(), received.boundingBox()]);
    expect((ownBox?.x ?? 0) + (ownBox?.width ?? 0)).toBeGreaterThan(
      (receivedBox?.x ?? 0) + (receivedBox?.width ?? 0) + 50,
    );
    expect(ownBox?.x ?? 0).toBeGreaterThan(receivedBox?.x ?? 0);
    const background = (l: typeof own) =>
      l
        .locator('div')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await background(own)).not.toBe(await background(received));

    // Each message shows its sender's picture, a default one when they have none.
    await expect(own.getByRole('img', { name: `Picture of ${ann.name}` })).toHaveAttribute(
      'src',
      '/demo/avatar.svg',
    );
    await expect(own.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
    await Promise.all([ann.context.close(), bob.context.close()]);
  });

  test('Send is disabled while the input is empty or only spaces', async ({ browser }) => {
    const { page, context } = await openChat(browser, 'Cara');
    const send = page.getByRole('button', { name: 'Send' });
    await expect(input(page)).toHaveAttribute('placeholder', 'say something nice');
    await expect(send).toBeDisabled();
    await input(page).fill('   ');
    await expect(send).toBeDisabled();
    await input(page).fill('hi');
    await expect(send).toBeEnabled();
    await input(page).fill('');
    await expect(send).toBeDisabled();
    await context.close();
  });

  test('a message with markup shows as text and runs nothing', async ({ browser }) => {
    const ann = await openChat(browser, 'Ann');
    const bob = await openChat(browser, 'Bob');
    const dialogs: string[] = [];
    for (const { page } of [ann, bob])
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
    const markup = `<img src=x onerror=alert(1)> ${randomUUID().slice(0, 8)}`;
    await say(ann.page, markup);
    for (const { page } of [ann, bob]) {
      await expect(messageWith(page, markup)).toHaveCount(1);
      await expect(messageWith(page, markup).getByText(markup, { exact: true })).toBeVisible();
      await expect(page.locator('img[src="x"]')).toHaveCount(0);
    }
    expect(dialogs).toEqual([]);
    await Promise.all([ann.context.close(), bob.context.close()]);
  });

  test('after the stream drops and reconnects, no message is lost or shown twice', async ({ browser }) => {
    const ann = await openChat(browser, 'Ann');
    const bob = await openChat(browser, 'Bob');
    const before = `Before the outage ${randomUUID()}`;
    await say(bob.page, before);
    await expect(messageWith(ann.page, before)).toHaveCount(1);
    const stream = () => ann.page.evaluate(() => ({ ...window.__chatStream }));
    const { opens, closes } = await stream();
    expect(opens).toBeGreaterThan(0);

    await ann.context.setOffline(true);
    await expect.poll(async () => (await stream()).closes).toBeGreaterThan(closes ?? 0);
    const during = [`While Ann is offline 1 ${randomUUID()}`, `While Ann is offline 2 ${randomUUID()}`];
    for (const text of during) await say(bob.page, text);
    await expect(messageWith(bob.page, during[1] ?? '')).toHaveCount(1);
    // Ann's stream is down, so these can only reach her through the reconnect.
    await expect(messageWith(ann.page, during[0] ?? '')).toHaveCount(0);
    await ann.context.setOffline(false);
    await expect.poll(async () => (await stream()).opens).toBeGreaterThan(opens ?? 0);

    for (const text of [before, ...during]) await expect(messageWith(ann.page, text)).toHaveCount(1);
    const after = `After the outage ${randomUUID()}`;
    await say(ann.page, after);
    await expect(messageWith(bob.page, after)).toHaveCount(1);
    await expect(messageWith(ann.page, after)).toHaveCount(1);
    const texts = await messages(ann.page).allTextContents();
    expect(new Set(texts).size).toBe(texts.length);
    await Promise.all([ann.context.close(), bob.context.close()]);
  });

  test.describe('sending too fast', () => {
    // The sixth message is refused with 429 on purpose.
    test.use({ expectedErrorUrls: [/\/api\/chat$/] });
    test('sending too fast shows the server’s message and keeps the text', async ({ browser }) => {
      const { page, context } = await openChat(browser, 'Dee');
      const tag = randomUUID().slice(0, 8);
      for (let i = 1; i <= 5; i++) await say(page, `burst ${tag} ${i}`);
      await input(page).fill(`burst ${tag} 6`);
      await input(page).press('Enter');
      await expect(page.getByRole('alert').filter({ hasText: /too fast/ })).toBeVisible();
      await expect(input(page)).toHaveValue(`burst ${tag} 6`);
      await expect(messages(page).filter({ hasText: `burst ${tag}` })).toHaveCount(5);
      await context.close();
    });
  });

  test('loads older messages on request, with a default picture for a broken one', async ({ browser }) => {
    const database = await e2eDatabase();
    const { db } = database;
    const tag = randomUUID().slice(0, 8);
    const elder = await upsertUser(db, {
      issuer: 'urn:e2e',
      subject: randomUUID(),
      email: `${randomUUID()}@e2e.test`,
      displayName: `Elder ${tag}`,
      photoUrl: 'https://images.invalid/elder.png',
    });
    // Long ago, so they are older than anything else the chat holds.
    const base = Date.UTC(1975, 0, 1);
    // Announced like any write, so the server's cached latest page is reloaded.
    await mutate({ db, bus: new ChangeBus(database), reactions }, async (tx, record) => {
      await tx.insert(chatMessages).values(
        Array.from({ length: 150 }, (_, i) => ({
          userId: elder.id,
          text: `old ${tag} #${i}`,
          createdAt: new Date(base + i * 1000),
        })),
      );
      record({ type: 'chat.posted', messageId: elder.id });
    });
    const { page, context } = await openChat(browser, 'Eve');
    const older = page.getByRole('button', { name: 'Load older messages' });
    const elders = messages(page).filter({ hasText: `old ${tag} #` });
    for (let pages = 0; pages < 10 && (await older.isVisible()); pages++) {
      const held = await messages(page).count();
      await older.click();
      await expect
        .poll(async () => (await older.count()) === 0 || (await messages(page).count()) > held)
        .toBe(true);
    }
    await expect(older).toHaveCount(0);
    await expect(elders).toHaveCount(150);
    await expect(elders.first()).toContainText(`old ${tag} #0`);
    await expect(elders.last()).toContainText(`old ${tag} #149`);
    await expect(elders.first().getByRole('img')).toHaveAttribute('src', '/demo/avatar.svg');
    await context.close();
  });

  test('signing out shows the sign-in explanation again', async ({ browser }) => {
    const { page, context } = await openChat(browser, 'Fay');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeVisible();
    await expect(input(page)).toHaveCount(0);
    await context.close();
  });

  test('has no axe-core violations, signed in with messages', async ({ browser }) => {
    const { page, context } = await openChat(browser, 'Gus');
    await say(page, `Accessible hello ${randomUUID()}`);
    expect(await axeFindings(page)).toEqual([]);
    await context.close();
  });
});
