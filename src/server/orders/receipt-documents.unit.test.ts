import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Receipt } from '../data/receipt-queries.js';
import { createCatalogues } from '../i18n/catalogues.js';
import { projectRoot } from '../lib/project-root.js';
import { readPdf } from '../test/read-pdf.js';
import { receiptHtml, renderReceiptPdf } from './receipt-documents.js';

const catalogues = createCatalogues(join(projectRoot(), 'locales'), 'USD');

/** 2 × Dal and a Devanagari dish, delivered, a 3.00 tip, 5.00 of store credit; then a refund and a later tip. */
const receipt: Receipt = {
  number: 'HC-0123456789AB',
  orderId: '01234567-89ab-4def-8123-456789abcdef',
  customerId: null,
  kitchenName: 'مطبخ أمل',
  permitNumber: 'PR0123456',
  timeZone: 'Asia/Kolkata',
  paidAt: new Date('2026-11-29T14:15:00Z'),
  method: 'card',
  card: { brand: 'mastercard', last4: '4444' },
  fulfilment: 'delivery',
  address: '5 Test Street',
  lines: [
    { item: 'Dal', priceCents: 950, quantity: 2 },
    { item: 'दाल मखनी', priceCents: 1200, quantity: 1 },
  ],
  itemsCents: 3100,
  deliveryFeeCents: 399,
  feesAndTaxCents: 310,
  tipCents: 300,
  totalCents: 4109,
  creditCents: 500,
  discount: null,
  currency: 'USD',
  refunds: [{ amountCents: 950, creditCents: 0, at: new Date('2026-11-29T16:00:00Z') }],
  laterTips: [{ amountCents: 500, at: new Date('2026-11-29T17:00:00Z') }],
};

describe('a receipt as a page and as a PDF', () => {
  it('in English: the number, kitchen, card, dishes, fees, tip, credit, total, the refund and later tip', async () => {
    const tr = catalogues.translator('en');
    const pdf = await readPdf(await renderReceiptPdf(receipt, tr));
    expect(pdf.pages).toBe(1);
    expect(pdf.sizes[0]?.[0]).toBeCloseTo(595.28, 0);
    for (const text of [
      'Receipt HC-0123456789AB',
      'PR0123456',
      'Mastercard ending in 4444',
      'Dal × 2',
      '$19.00',
      'Delivery fee',
      '$3.99',
      'Fees and Estimated Tax',
      'Tip for the cook',
      '$3.00',
      'Total',
      '$41.09',
      'Store credit',
      '-$5.00',
      'Paid by card',
      '$36.09',
      'Refunded to your card on',
      '-$9.50',
      '$5.00',
      'Asia/Kolkata time',
    ])
      expect(pdf.text, text).toContain(text);
    // The kitchen's Arabic name and the Devanagari dish, each in a Noto font that has its letters.
    expect(pdf.items.find((i) => i.text.includes('مطبخ'))?.font).toMatch(/NotoSansArabic/);
    expect(pdf.items.find((i) => i.text.includes('मखनी'))?.font).toMatch(/NotoSansDevanagari/);
    // The page links to the PDF.
    const html = receiptHtml(receipt, tr, '/api/orders/x/receipt.pdf');
    expect(html).toContain('<a href="/api/orders/x/receipt.pdf" download');
    expect(html).toContain('Download PDF');
    expect(html).toContain('Mastercard ending in 4444');
  });

  it('in Arabic and Hindi: translated, right to left in Arabic (amounts on the left)', async () => {
    const ar = await readPdf(await renderReceiptPdf(receipt, catalogues.translator('ar')));
    expect(ar.text).toContain('HC-0123456789AB');
    // 'الإيصال' (pdf.js reads its lam-alef ligature back in another order: the letters after it).
    const title = ar.items.find((i) => i.text.includes('يصال'));
    expect(title?.font).toMatch(/NotoSansArabic-Bold/);
    const total = ar.items.find((i) => i.text.includes('41.09'));
    const dal = ar.items.find((i) => i.text.startsWith('Dal'));
    expect(total!.x).toBeLessThan(dal!.x);
    const hi = await readPdf(await renderReceiptPdf(receipt, catalogues.translator('hi')));
    expect(hi.items.find((i) => i.text.includes('रसीद'))?.font).toMatch(/NotoSansDevanagari-Bold/);
    expect(hi.text).toContain('HC-0123456789AB');
  });
});
