import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { CustomerOrder } from '../../shared/orders.js';
import type { TipStarted } from '../../shared/tips.js';
import { notificationOutbox, orders } from '../db/schema.js';
import { receiptNumber } from '../data/receipt-queries.js';
import { renderNotice } from '../notifications/render.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { readPdf } from '../test/read-pdf.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';
import {
  localProvider,
  orderCalls,
  paidKitchen,
  placeOrder,
  sessionOf,
  TO_THE_DOOR,
} from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

describeEachEngine(
  'receipts of paid orders',
  (get) => {
    const receipt = (cookie: string | undefined, orderId: string, language = 'en') =>
      get().app.inject({
        url: `/api/orders/${orderId}/receipt`,
        headers: { ...(cookie ? { cookie } : {}), 'accept-language': language },
      });

    /** A card order of 2 × Dal with a 3.00 tip, paid, then taken to the door (captured, delivered). */
    async function delivered(ctx: TestContext) {
      const world = await paidKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const placed = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal, world.dal], {
        tipCents: 300,
      });
      const order = placed.json<CustomerOrder>();
      const local = localProvider(ctx);
      await local.pay(sessionOf(order), TEST_CARDS.pays);
      await local.settled();
      return { ...world, customer, order, local };
    }

    it('emails the customer a receipt once the money is taken, and shows it to them alone (and operators)', async () => {
      const ctx = get();
      const { cook, customer, order, local } = await delivered(ctx);
      // Authorised, not taken: no receipt yet.
      expect((await receipt(customer.cookie, order.id)).statusCode).toBe(404);
      const { move } = orderCalls(() => ctx);
      for (const body of TO_THE_DOOR) expect((await move(cook.cookie, order.id, body)).statusCode).toBe(200);
      await local.settled();
      const notices = await ctx.database.db
        .select()
        .from(notificationOutbox)
        .where(and(eq(notificationOutbox.subjectId, order.id), eq(notificationOutbox.kind, 'order-receipt')));
      expect(notices).toHaveLength(1);
      expect(notices[0]?.recipientId).toBe(customer.user.id);
      const mail = await renderNotice(
        ctx.database.db,
        { kind: 'order-receipt', subjectId: order.id, recipientId: customer.user.id },
        'https://homecooked.test',
      );
      expect(mail?.subject).toContain('Your receipt from');
      expect(mail?.text).toContain(receiptNumber(order.id));
      expect(mail?.text).toContain('Tip for the cook: $3.00');
      expect(mail?.text).toContain(`https://homecooked.test/api/orders/${order.id}/receipt`);
      // The card in the same words as the receipt's page and PDF.
      expect(mail?.text).toContain('Paid by card: Visa ending in 4242');
      expect(mail?.html).toContain('Visa ending in 4242');
      const before = await receipt(customer.cookie, order.id);
      expect(before.body).toContain('Visa ending in 4242');

      // A refund and a tip after delivery are appended; the number stays.
      const refunded = await ctx.app.inject({
        method: 'POST',
        url: `/api/kitchen/orders/${order.id}/refunds`,
        headers: { cookie: cook.cookie },
        payload: {
          key: randomUUID(),
          dishes: [{ item: 'Dal', priceCents: 950, quantity: 1 }],
          reason: 'Missing',
        },
      });
      expect(refunded.statusCode, refunded.body).toBe(200);
      const tipped = await ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${order.id}/tips`,
        headers: { cookie: customer.cookie },
        payload: { amountCents: 500, requestKey: randomUUID() },
      });
      const session =
        /\/checkout\/(cs_[0-9a-f]+)/.exec(tipped.json<TipStarted>().checkoutUrl ?? '')?.[1] ?? '';
      await local.pay(session, TEST_CARDS.pays);
      await local.settled();

      const page = await receipt(customer.cookie, order.id);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      const html = page.body;
      expect(html).toContain(`Receipt ${receiptNumber(order.id)}`);
      expect(html).toContain(cook.kitchen.name.replace(/'/g, '&#39;'));
      expect(html).toContain('Dal × 2');
      expect(html).toContain('Tip for the cook');
      expect(html).toContain('$3.00');
      expect(html).toContain(`$${(order.totalCents / 100).toFixed(2)}`);
      expect(html).toContain('Refunded to your card on');
      expect(html).toContain('-$9.50');
      expect(html).toContain('$5.00');
      expect(html).toContain('UTC time');
      // Appended, never rewritten: what the page said before the refund is there as it was, the refund and tip
      // after it; the email, were it sent again, says what was paid, as before.
      const paidPart = before.body.slice(
        0,
        before.body.indexOf('</tbody></table>') + '</tbody></table>'.length,
      );
      expect(paidPart).toContain('Total');
      expect(html.startsWith(paidPart ?? '-')).toBe(true);
      expect(html.indexOf('Refunded to your card on')).toBeGreaterThan(paidPart?.length ?? 0);
      const again = await renderNotice(
        ctx.database.db,
        { kind: 'order-receipt', subjectId: order.id, recipientId: customer.user.id },
        'https://homecooked.test',
      );
      expect(again?.text).toBe(mail?.text);
      // A second refund comes after the rows already there, which stay as they were.
      const sinceThen = (page: string) => page.split('Since then')[1]?.match(/<tr[^]*?<\/tr>/g) ?? [];
      const second = await ctx.app.inject({
        method: 'POST',
        url: `/api/kitchen/orders/${order.id}/refunds`,
        headers: { cookie: cook.cookie },
        payload: {
          key: randomUUID(),
          dishes: [{ item: 'Dal', priceCents: 950, quantity: 1 }],
          reason: 'Wrong dish',
        },
      });
      expect(second.statusCode, second.body).toBe(200);
      await local.settled();
      const later = (await receipt(customer.cookie, order.id)).body;
      expect(later.startsWith(paidPart ?? '-')).toBe(true);
      expect(sinceThen(html)).toHaveLength(2);
      expect(sinceThen(later)).toHaveLength(3);
      expect(sinceThen(later).slice(0, 2)).toEqual(sinceThen(html));
      expect(sinceThen(later)[2]).toContain('-$9.50');

      // An order paid before cards were kept on it: the email asks the provider, as the page does.
      await ctx.database.db
        .update(orders)
        .set({ cardBrand: null, cardLast4: null })
        .where(eq(orders.id, order.id));
      const asked = await renderNotice(
        ctx.database.db,
        { kind: 'order-receipt', subjectId: order.id, recipientId: customer.user.id },
        'https://homecooked.test',
        new Date(),
        undefined,
        { provider: ctx.app.payments.provider },
      );
      expect(asked?.text).toContain('Paid by card: Visa ending in 4242');
      expect((await receipt(customer.cookie, order.id)).body).toContain('Visa ending in 4242');
      // In the customer's language.
      const spanish = await receipt(customer.cookie, order.id, 'es');
      expect(spanish.body).toContain('lang="es"');
      expect(spanish.body).toContain(`Recibo ${receiptNumber(order.id)}`);

      // Nobody else's: another customer (404), the cook (401), nobody signed in (401); an operator may read it.
      const stranger = await signedIn(ctx, 'customer');
      expect((await receipt(stranger.cookie, order.id)).statusCode).toBe(404);
      expect((await receipt(cook.cookie, order.id)).statusCode).toBe(401);
      expect((await receipt(undefined, order.id)).statusCode).toBe(401);
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      expect((await receipt(operator.cookie, order.id)).statusCode).toBe(200);
      expect((await receipt(customer.cookie, 'not-a-uuid')).statusCode).toBe(400);
    });

    it("the receipt as a PDF: its number, the kitchen, the card, the total; its customer's alone", async () => {
      const ctx = get();
      const { cook, customer, order, local } = await delivered(ctx);
      const pdfOf = (cookie: string | undefined, language = 'en') =>
        ctx.app.inject({
          url: `/api/orders/${order.id}/receipt.pdf`,
          headers: { ...(cookie ? { cookie } : {}), 'accept-language': language },
        });
      // Authorised, not taken: no receipt yet.
      expect((await pdfOf(customer.cookie)).statusCode).toBe(404);
      const { move } = orderCalls(() => ctx);
      for (const body of TO_THE_DOOR) expect((await move(cook.cookie, order.id, body)).statusCode).toBe(200);
      await local.settled();

      // The page links to the PDF and names the card (kept on the order since its payment was authorised).
      const page = await receipt(customer.cookie, order.id);
      expect(page.body).toContain(`href="/api/orders/${order.id}/receipt.pdf"`);
      expect(page.body).toContain('Download PDF');
      expect(page.body).toContain('Visa ending in 4242');
      const [kept] = await ctx.database.db
        .select({ brand: orders.cardBrand, last4: orders.cardLast4 })
        .from(orders)
        .where(eq(orders.id, order.id));
      expect(kept).toEqual({ brand: 'visa', last4: '4242' });

      const res = await pdfOf(customer.cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${receiptNumber(order.id)}.pdf"`,
      );
      expect(res.headers['cache-control']).toBe('private, no-store');
      const pdf = await readPdf(res.rawPayload);
      expect(pdf.text).toContain(`Receipt ${receiptNumber(order.id)}`);
      expect(pdf.text).toContain(cook.kitchen.name);
      expect(pdf.text).toContain('Visa ending in 4242');
      expect(pdf.text).toContain('Dal × 2');
      expect(pdf.text).toContain(`$${(order.totalCents / 100).toFixed(2)}`);
      expect(pdf.text).toContain('Tip for the cook');
      // The same number in the reader's language (Arabic set in the Arabic font).
      const arabic = await readPdf((await pdfOf(customer.cookie, 'ar')).rawPayload);
      expect(arabic.text).toContain(receiptNumber(order.id));
      expect(arabic.items.some((i) => /NotoSansArabic/.test(i.font))).toBe(true);

      // As the page: another customer 404, the cook and nobody 401, an operator 200.
      const stranger = await signedIn(ctx, 'customer');
      expect((await pdfOf(stranger.cookie)).statusCode).toBe(404);
      expect((await pdfOf(cook.cookie)).statusCode).toBe(401);
      expect((await pdfOf(undefined)).statusCode).toBe(401);
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      expect((await pdfOf(operator.cookie)).statusCode).toBe(200);
    });

    it('tells the cook when a problem is reported with one of their orders', async () => {
      const ctx = get();
      const { cook, customer, order, local } = await delivered(ctx);
      const { move } = orderCalls(() => ctx);
      for (const body of TO_THE_DOOR) await move(cook.cookie, order.id, body);
      await local.settled();
      const filed = await ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${order.id}/problem`,
        headers: { cookie: customer.cookie },
        payload: {
          reason: 'missing',
          dishes: [{ item: 'Dal', priceCents: 950, quantity: 1 }],
          details: 'One dal was not in the bag',
          photoIds: [],
        },
      });
      expect(filed.statusCode, filed.body).toBe(201);
      const notices = await ctx.database.db
        .select()
        .from(notificationOutbox)
        .where(and(eq(notificationOutbox.subjectId, order.id), eq(notificationOutbox.kind, 'order-problem')));
      expect(notices.map((n) => n.recipientId)).toEqual([cook.kitchen.uid]);
      const mail = await renderNotice(
        ctx.database.db,
        { kind: 'order-problem', subjectId: order.id, recipientId: cook.kitchen.uid },
        'https://homecooked.test',
      );
      expect(mail?.subject).toBe('A problem with an order: Missing');
      expect(mail?.text).toContain('One dal was not in the bag');
      // Not the customer's to hear of.
      expect(
        await renderNotice(
          ctx.database.db,
          { kind: 'order-problem', subjectId: order.id, recipientId: customer.user.id },
          'https://homecooked.test',
        ),
      ).toBeNull();
    });
  },
  { PAYMENTS: 'local', ...operatorEnv },
);
