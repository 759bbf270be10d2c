import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { textDirection } from '../../shared/i18n/locales.js';
import type { Translator } from '../../shared/i18n/translator.js';
import { formatMoney } from '../../shared/money.js';
import { formatClock, localTime } from '../../shared/opening-hours.js';
import { OrderParams } from '../../shared/orders.js';
import { receiptOf, type Receipt } from '../data/receipt-queries.js';
import { currentOperator, currentUser } from '../identity/sessions.js';
import { escapeHtml } from '../lib/html.js';
import { notFound, unauthorized } from '../lib/errors.js';

/** A moment on a receipt: the kitchen's day and time, saying its time zone ('2026-11-29 7:45 PM, Asia/Kolkata'). */
function when(at: Date, timeZone: string, tr: Translator): string {
  const local = localTime(at, timeZone);
  const day = tr
    .dateFormat({ year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
    .format(new Date(`${local.date}T12:00:00Z`));
  return tr.t('{day}, {time} ({timeZone} time)', { day, time: formatClock(local.minutes, tr), timeZone });
}

/**
 * A receipt as a page of its own (printable, no script): the kitchen and its permit number, the receipt's number,
 * when it was paid (the kitchen's time zone), the dishes, fees, tip and total, then each refund and later tip
 * appended, in the reader's language. Every value is escaped.
 */
export function receiptHtml(receipt: Receipt, tr: Translator): string {
  const e = escapeHtml;
  const money = (minor: number) => formatMoney(minor, receipt.currency, tr);
  const row = (label: string, value: string, strong = false) =>
    `<tr${strong ? ' style="font-weight:700;border-top:1px solid #adb5bd"' : ''}><th scope="row" style="text-align:start;font-weight:inherit;padding:4px 16px 4px 0">${e(label)}</th><td style="text-align:end;padding:4px 0">${e(value)}</td></tr>`;
  const dishes = receipt.lines
    .map((line) =>
      row(
        line.quantity > 1
          ? tr.t('{item} × {quantity}', { item: line.item, quantity: line.quantity })
          : line.item,
        money(line.priceCents * line.quantity),
      ),
    )
    .join('');
  const after = [
    ...receipt.refunds.map((refund) => ({
      at: refund.at,
      html: [
        refund.amountCents > refund.creditCents
          ? row(
              tr.t('Refunded to your card on {when}', { when: when(refund.at, receipt.timeZone, tr) }),
              money(-(refund.amountCents - refund.creditCents)),
            )
          : '',
        refund.creditCents > 0
          ? row(
              tr.t('Given back as store credit on {when}', { when: when(refund.at, receipt.timeZone, tr) }),
              money(-refund.creditCents),
            )
          : '',
      ].join(''),
    })),
    ...receipt.laterTips.map((tip) => ({
      at: tip.at,
      html: row(
        tr.t('Tip for the cook on {when}', { when: when(tip.at, receipt.timeZone, tr) }),
        money(tip.amountCents),
      ),
    })),
  ]
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map((part) => part.html)
    .join('');
  const title = tr.t('Receipt {number}', { number: receipt.number });
  const paidBy = receipt.method === 'card' ? tr.t('Paid by card') : tr.t('Paid in cash on delivery');
  return `<!doctype html>
<html lang="${tr.locale}"${textDirection(tr.locale) === 'rtl' ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title></head>
<body style="margin:0;padding:24px 12px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#212529;line-height:1.5">
<main style="max-width:560px;margin:0 auto">
<p style="margin:0 0 8px;font-size:13px;font-weight:700;color:#9a3412">HomeCooked</p>
<h1 style="margin:0 0 8px;font-size:22px">${e(title)}</h1>
<p style="margin:0 0 4px;font-weight:600">${e(receipt.kitchenName)}</p>
${receipt.permitNumber ? `<p style="margin:0 0 4px">${e(tr.t('Permit number: {number}', { number: receipt.permitNumber }))}</p>` : ''}
<p style="margin:0 0 16px">${e(tr.t('Paid on {when}', { when: when(receipt.paidAt, receipt.timeZone, tr) }))} · ${e(paidBy)}</p>
<table style="border-collapse:collapse;width:100%;margin:0 0 16px">
<caption style="text-align:start;font-weight:700;padding:0 0 4px">${e(tr.t('Your order'))}</caption>
<tbody>${dishes}
${row(tr.t('Items'), money(receipt.itemsCents))}
${receipt.fulfilment === 'delivery' ? row(tr.t('Delivery fee'), money(receipt.deliveryFeeCents)) : ''}
${row(tr.t('Fees and Estimated Tax'), money(receipt.feesAndTaxCents))}
${receipt.tipCents > 0 ? row(tr.t('Tip for the cook'), money(receipt.tipCents)) : ''}
${row(tr.t('Total'), money(receipt.totalCents), true)}
${receipt.creditCents > 0 ? row(tr.t('Store credit'), money(-receipt.creditCents)) + row(tr.t('Paid by card'), money(receipt.totalCents - receipt.creditCents)) : ''}
</tbody></table>
${after ? `<table style="border-collapse:collapse;width:100%;margin:0 0 16px"><caption style="text-align:start;font-weight:700;padding:0 0 4px">${e(tr.t('Since then'))}</caption><tbody>${after}</tbody></table>` : ''}
<p style="margin:0;font-size:13px;color:#495057">${e(tr.t('Order {id}', { id: receipt.orderId }))}</p>
</main>
</body></html>`;
}

/** A paid order's receipt: its customer's, and operators'. */
export const receiptRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/orders/:id/receipt',
    {
      config: {
        doc: {
          summary:
            "A paid order's receipt as a page (kitchen and permit number, dishes, fees, tip, total, then refunds and later tips), in the reader's language and the kitchen's time zone: the order's customer's, or an operator's",
          cookie: 'signed-in',
          responses: { 200: { description: 'The receipt', type: 'text/html' } },
          errors: { 401: 'Not signed in', 404: 'No such paid order of yours' },
        },
      },
      schema: { params: OrderParams },
    },
    async (request, reply) => {
      const [customer, operator] = await Promise.all([
        currentUser(request, 'customer'),
        currentOperator(request),
      ]);
      if (!customer && !operator) throw unauthorized('Please sign in to continue');
      const receipt = await receiptOf(app.db, request.params.id);
      if (!receipt || (!operator && receipt.customerId !== customer?.id))
        throw notFound('You have no paid order with this id');
      const tr = app.i18n.translator(request.locale);
      return reply
        .header('cache-control', 'private, no-store')
        .type('text/html; charset=utf-8')
        .send(receiptHtml(receipt, tr));
    },
  );
};
