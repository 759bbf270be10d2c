import { decimalAmount } from '../../shared/money.js';
import type { Earnings } from '../../shared/payments.js';
import { msg, translator, type Translator } from '../../shared/i18n/translator.js';
import { csvFile, textCell } from '../lib/csv.js';

export { textCell };

/** The header row's columns (messages: each is written in the cook's language). */
export const EARNINGS_CSV_HEADER = [
  msg('Day'),
  msg('Paid at'),
  msg('Order'),
  msg('Method'),
  msg('Items'),
  msg('Items amount'),
  msg('Delivery fee'),
  msg('Platform fee'),
  msg('Refunded'),
  msg('Tip'),
  msg('Net'),
  msg('Currency'),
];

/**
 * The cook's earnings as a CSV file (RFC 4180, CRLF line ends, UTF-8 with a byte order mark so that spreadsheets
 * read dishes' accents right): a header row, then one row per paid order. Amounts are our own numbers, written as
 * decimals; every text cell goes through `textCell` (a dish's
 * name as much as the cell of them all).
 */
export function earningsCsv(earnings: Earnings, tr: Translator = translator()): string {
  const money = (minor: number) => decimalAmount(minor, earnings.currency);
  const rows = earnings.lines.map((line) => [
    textCell(line.day),
    textCell(line.at),
    textCell(line.orderId),
    textCell(line.method),
    textCell(line.items.join('; ')),
    money(line.itemsCents),
    money(line.deliveryFeeCents),
    money(line.platformFeeCents),
    money(line.refundedCents),
    money(line.tipCents),
    money(line.netCents),
    textCell(earnings.currency),
  ]);
  return csvFile([EARNINGS_CSV_HEADER.map((column) => textCell(tr.t(column))), ...rows]);
}

/** The download's file name: `earnings-2026-01-01-to-2026-03-31.csv`. */
export const earningsFileName = (earnings: Pick<Earnings, 'from' | 'to'>) =>
  `earnings-${earnings.from}-to-${earnings.to}.csv`;
