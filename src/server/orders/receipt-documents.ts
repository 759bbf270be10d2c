import { textDirection } from '../../shared/i18n/locales.js';
import type { Translator } from '../../shared/i18n/translator.js';
import { formatMoney } from '../../shared/money.js';
import { formatClock, localTime } from '../../shared/opening-hours.js';
import { cardText, type Receipt } from '../data/receipt-queries.js';
import { escapeHtml } from '../lib/html.js';
import { TextPage, type Paragraph } from '../lib/pdf-text.js';

/** A moment on a receipt: the kitchen's day and time, saying its time zone ('2026-11-29 7:45 PM, Asia/Kolkata'). */
function when(at: Date, timeZone: string, tr: Translator): string {
  const local = localTime(at, timeZone);
  const day = tr
    .dateFormat({ year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
    .format(new Date(`${local.date}T12:00:00Z`));
  return tr.t('{day}, {time} ({timeZone} time)', { day, time: formatClock(local.minutes, tr), timeZone });
}

/** One line of a receipt's table: what, and how much. */
interface Row {
  label: string;
  value: string;
  strong?: boolean;
}

/** What a receipt says, in the reader's language: the same on the page and in the PDF. */
interface ReceiptText {
  title: string;
  kitchen: string;
  /** Lines under the kitchen's name: permit number, when paid and how, the card. */
  about: string[];
  caption: string;
  rows: Row[];
  afterCaption: string;
  /** Refunds and later tips, oldest first (appended, never rewritten). */
  after: Row[];
  footer: string;
}

function receiptText(receipt: Receipt, tr: Translator): ReceiptText {
  const money = (minor: number) => formatMoney(minor, receipt.currency, tr);
  const dishes: Row[] = receipt.lines.map((line) => ({
    label:
      line.quantity > 1
        ? tr.t('{item} × {quantity}', { item: line.item, quantity: line.quantity })
        : line.item,
    value: money(line.priceCents * line.quantity),
  }));
  const after = [
    ...receipt.refunds.flatMap((refund) => [
      ...(refund.amountCents > refund.creditCents
        ? [
            {
              at: refund.at,
              label: tr.t('Refunded to your card on {when}', { when: when(refund.at, receipt.timeZone, tr) }),
              value: money(-(refund.amountCents - refund.creditCents)),
            },
          ]
        : []),
      ...(refund.creditCents > 0
        ? [
            {
              at: refund.at,
              label: tr.t('Given back as store credit on {when}', {
                when: when(refund.at, receipt.timeZone, tr),
              }),
              value: money(-refund.creditCents),
            },
          ]
        : []),
    ]),
    ...receipt.laterTips.map((tip) => ({
      at: tip.at,
      label: tr.t('Tip for the cook on {when}', { when: when(tip.at, receipt.timeZone, tr) }),
      value: money(tip.amountCents),
    })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  const paidBy = receipt.method === 'card' ? tr.t('Paid by card') : tr.t('Paid in cash on delivery');
  return {
    title: tr.t('Receipt {number}', { number: receipt.number }),
    kitchen: receipt.kitchenName,
    about: [
      ...(receipt.permitNumber ? [tr.t('Permit number: {number}', { number: receipt.permitNumber })] : []),
      `${tr.t('Paid on {when}', { when: when(receipt.paidAt, receipt.timeZone, tr) })} · ${paidBy}`,
      ...(receipt.card ? [cardText(receipt.card, tr)] : []),
    ],
    caption: tr.t('Your order'),
    rows: [
      ...dishes,
      { label: tr.t('Items'), value: money(receipt.itemsCents) },
      ...(receipt.fulfilment === 'delivery'
        ? [{ label: tr.t('Delivery fee'), value: money(receipt.deliveryFeeCents) }]
        : []),
      { label: tr.t('Fees and Estimated Tax'), value: money(receipt.feesAndTaxCents) },
      ...(receipt.tipCents > 0 ? [{ label: tr.t('Tip for the cook'), value: money(receipt.tipCents) }] : []),
      // Who paid a promotion code (ADR 30): the marketplace, or the kitchen.
      ...(receipt.discount
        ? [
            {
              label:
                receipt.discount.paidBy === 'platform'
                  ? tr.t('Code {code} (paid by HomeCooked)', { code: receipt.discount.code })
                  : tr.t('Code {code} (paid by {kitchen})', {
                      code: receipt.discount.code,
                      kitchen: receipt.kitchenName,
                    }),
              value: money(-receipt.discount.cents),
            },
          ]
        : []),
      { label: tr.t('Total'), value: money(receipt.totalCents), strong: true },
      ...(receipt.creditCents > 0
        ? [
            { label: tr.t('Store credit'), value: money(-receipt.creditCents) },
            { label: tr.t('Paid by card'), value: money(receipt.totalCents - receipt.creditCents) },
          ]
        : []),
    ],
    afterCaption: tr.t('Since then'),
    after: after.map(({ label, value }) => ({ label, value })),
    footer: tr.t('Order {id}', { id: receipt.orderId }),
  };
}

/**
 * A receipt as a page of its own (printable, no script): the kitchen and its permit number, the receipt's number,
 * when it was paid (the kitchen's time zone) and with which card, the dishes, fees, tip and total, then each refund
 * and later tip appended, in the reader's language, and a link to the same as a PDF. Every value is escaped.
 */
export function receiptHtml(receipt: Receipt, tr: Translator, pdfHref: string): string {
  const e = escapeHtml;
  const text = receiptText(receipt, tr);
  const row = ({ label, value, strong }: Row) =>
    `<tr${strong ? ' style="font-weight:700;border-top:1px solid #adb5bd"' : ''}><th scope="row" style="text-align:start;font-weight:inherit;padding:4px 16px 4px 0">${e(label)}</th><td style="text-align:end;padding:4px 0">${e(value)}</td></tr>`;
  return `<!doctype html>
<html lang="${tr.locale}"${textDirection(tr.locale) === 'rtl' ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(text.title)}</title></head>
<body style="margin:0;padding:24px 12px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#212529;line-height:1.5">
<main style="max-width:560px;margin:0 auto">
<p style="margin:0 0 8px;font-size:13px;font-weight:700;color:#9a3412">HomeCooked</p>
<h1 style="margin:0 0 8px;font-size:22px">${e(text.title)}</h1>
<p style="margin:0 0 4px;font-weight:600">${e(text.kitchen)}</p>
${text.about.map((line, i) => `<p style="margin:0 0 ${i === text.about.length - 1 ? 16 : 4}px">${e(line)}</p>`).join('\n')}
<table style="border-collapse:collapse;width:100%;margin:0 0 16px">
<caption style="text-align:start;font-weight:700;padding:0 0 4px">${e(text.caption)}</caption>
<tbody>${text.rows.map(row).join('\n')}
</tbody></table>
${text.after.length ? `<table style="border-collapse:collapse;width:100%;margin:0 0 16px"><caption style="text-align:start;font-weight:700;padding:0 0 4px">${e(text.afterCaption)}</caption><tbody>${text.after.map(row).join('')}</tbody></table>` : ''}
<p style="margin:0 0 16px"><a href="${e(pdfHref)}" download style="color:#9a3412;font-weight:600">${e(tr.t('Download PDF'))}</a></p>
<p style="margin:0;font-size:13px;color:#495057">${e(text.footer)}</p>
</main>
</body></html>`;
}

const MM = 72 / 25.4;

/**
 * The same receipt as an A4 PDF, set in the Noto fonts the labels use (Arabic and Devanagari shaped, right to left
 * where the language is): each row's label in a column and its amount in a narrower one, on the reading side's end.
 */
export function renderReceiptPdf(receipt: Receipt, tr: Translator): Promise<Buffer> {
  const text = receiptText(receipt, tr);
  const rtl = textDirection(tr.locale) === 'rtl';
  const page = new TextPage(
    {
      info: { Title: text.title, Author: 'HomeCooked', Subject: text.kitchen },
      lang: tr.locale,
      displayTitle: true,
    },
    rtl,
  );
  const margin = 18 * MM;
  const [width, height] = [210 * MM, 297 * MM];
  const column = width - 2 * margin;
  const amount = 32 * MM;
  const gap = 6 * MM;
  page.doc.addPage({ size: 'A4', margin: 0 });
  let y = page.draw(
    [
      { runs: [{ text: 'HomeCooked', bold: true }], size: 9, after: 4 },
      { runs: [{ text: text.title, bold: true }], size: 18, after: 6 },
      { runs: [{ text: text.kitchen, bold: true }], size: 12, after: 2 },
      ...text.about.map((line) => ({ runs: [{ text: line }], size: 10 })),
    ],
    margin,
    margin,
    column,
  );
  const table = (caption: string, rows: readonly Row[]) => {
    y = page.draw([{ runs: [{ text: caption, bold: true }], size: 11, after: 2 }], margin, y + 12, column);
    for (const row of rows) {
      const label: Paragraph = { runs: [{ text: row.label, bold: row.strong === true }], size: 10, after: 3 };
      const value: Paragraph = { runs: [{ text: row.value, bold: row.strong === true }], size: 10, after: 3 };
      const labelWidth = column - amount - gap;
      if (y + page.heightOf([label], labelWidth) > height - margin) {
        page.doc.addPage({ size: 'A4', margin: 0 });
        y = margin;
      }
      if (row.strong)
        page.doc
          .moveTo(margin, y - 2)
          .lineTo(margin + column, y - 2)
          .lineWidth(0.5)
          .strokeColor('#adb5bd')
          .stroke();
      const [labelX, valueX] = rtl ? [margin + amount + gap, margin] : [margin, margin + column - amount];
      const below = page.draw([label], labelX, y, labelWidth);
      page.draw([value], valueX, y, amount);
      y = below;
    }
  };
  table(text.caption, text.rows);
  if (text.after.length) table(text.afterCaption, text.after);
  page.draw([{ runs: [{ text: text.footer }], size: 8 }], margin, y + 12, column);
  return page.finish();
}
