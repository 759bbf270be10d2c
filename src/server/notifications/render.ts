import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.js';
import { NOTICE_AUDIENCE } from '../../shared/notifications.js';
import { formatClock, localTime } from '../../shared/opening-hours.js';
import { itemCounts } from '../../shared/orders.js';
import { paths } from '../../shared/paths.js';
import { dayName, slotLabel } from '../../shared/slots.js';
import type { DbOrTx } from '../db/database.js';
import { kitchens, ledgerEntries, orderItems, orders, reports, reviews } from '../db/schema.js';
import { escapeHtml } from '../lib/html.js';
import type { NoticeRef, RenderedNotice } from './channels.js';

/**
 * A notice before it is written out: its subject, a first paragraph that says it all (the push's body), details
 * as label and value, a quoted text (a note, a reason, a review), and the page that shows it. Every value is plain
 * text: the HTML escapes all of it.
 */
interface Message {
  subject: string;
  lead: string;
  details?: [label: string, value: string][];
  quote?: { label: string; text: string };
  /** More paragraphs after the details. */
  after?: string[];
  action: { label: string; path: string };
}

type OrderRow = typeof orders.$inferSelect;

interface OrderFacts {
  order: OrderRow;
  /** 'Dal × 2, Rice'. */
  items: string;
  timeZone: string;
  pickup: { address: string; instructions: string } | null;
}

/** An order's dishes with their counts, in the order first added: 'Dal × 2, Rice'. */
export function itemsText(lines: readonly { item: string; priceCents: number }[]): string {
  return lines.length === 0 ? 'no dishes' : itemCounts(lines).join(', ');
}

/** Text cut to `max` characters (with '…'), for a subject line. */
const cut = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
};
/** One paragraph: what a person typed over several lines (an address, a reason) joined into one. */
const oneParagraph = (text: string) => text.replace(/\s+/g, ' ').trim();

/** 'Today 7:45 PM (Asia/Kolkata time)': a moment in the kitchen's time zone, saying so. */
const kitchenTime = (at: Date, timeZone: string, now: Date) =>
  `${dayName(at, timeZone, now)} ${formatClock(localTime(at, timeZone).minutes)} (${timeZone} time)`;

const slotOf = (order: OrderRow, timeZone: string, now: Date) =>
  order.slotStart && order.slotEnd
    ? `${slotLabel({ start: order.slotStart.toISOString(), end: order.slotEnd.toISOString() }, timeZone, now)} (${timeZone} time)`
    : null;

async function orderFacts(db: DbOrTx, orderId: string): Promise<OrderFacts | null> {
  const [row] = await db
    .select({
      order: orders,
      timeZone: kitchens.timeZone,
      pickupAddress: kitchens.pickupAddress,
      pickupInstructions: kitchens.pickupInstructions,
    })
    .from(orders)
    .leftJoin(kitchens, eq(kitchens.ownerId, orders.kitchenId))
    .where(eq(orders.id, orderId));
  if (!row) return null;
  const lines = await db
    .select({ item: orderItems.item, priceCents: orderItems.priceCents })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position));
  return {
    order: row.order,
    items: itemsText(lines),
    timeZone: row.timeZone ?? 'UTC',
    pickup:
      row.pickupAddress !== null
        ? { address: row.pickupAddress, instructions: row.pickupInstructions ?? '' }
        : null,
  };
}

const kitchenOrders = { label: 'Open your orders', path: paths.kitchenOrders.href() };
const customerOrder = { label: 'See your order', path: paths.customerOrderStatus.href() };

const reasonQuote = (order: OrderRow, label = 'Reason') =>
  order.endReason ? { quote: { label, text: order.endReason } } : {};

/** Where to collect a pickup order, once the kitchen accepted it. */
const pickupDetails = (facts: OrderFacts): [string, string][] =>
  facts.order.fulfilment === 'pickup' && facts.pickup
    ? [
        ['Pick up at', facts.pickup.address],
        ...(facts.pickup.instructions ? [['How', facts.pickup.instructions] as [string, string]] : []),
      ]
    : [];

/** The message of a notice about an order, for its cook or its customer. */
function orderMessage(kind: NoticeRef['kind'], facts: OrderFacts, now: Date): Message | null {
  const { order, items, timeZone } = facts;
  const kitchen = order.kitchenName;
  const total = formatMoney(order.totalCents, order.currency);
  const slot = slotOf(order, timeZone, now);
  switch (kind) {
    case 'order-new':
      return {
        subject: cut(`New order: ${items}`, 120),
        lead: `${order.customerEmail} ordered ${items} from ${kitchen}: ${total}, ${order.fulfilment === 'pickup' ? 'pickup' : 'delivery'}${slot ? ` for ${slot}` : ', as soon as possible'}. Accept or decline it on your orders page.`,
        details: [
          ['Order', items],
          ['From', order.customerEmail],
          ['Total', total],
          [
            order.fulfilment === 'pickup' ? 'Pickup' : 'Delivery',
            order.fulfilment === 'pickup' ? 'The customer collects it' : order.address,
          ],
          ['When', slot ?? 'As soon as possible'],
          ...(order.answerBy
            ? [['Answer by', kitchenTime(order.answerBy, timeZone, now)] as [string, string]]
            : []),
        ],
        ...(order.note ? { quote: { label: 'Note for the cook', text: order.note } } : {}),
        action: kitchenOrders,
      };
    case 'order-unanswered':
      return {
        subject: cut(`Order declined, nobody answered in time: ${items}`, 120),
        lead: `The order of ${items} from ${order.customerEmail} at ${kitchen} was declined because nobody answered it in time. Its customer has been told.`,
        details: [['Order', items], ['Total', total], ...(slot ? [['When', slot] as [string, string]] : [])],
        action: kitchenOrders,
      };
    case 'order-cancelled-by-customer':
      return {
        subject: cut(`Order cancelled by the customer: ${items}`, 120),
        lead: `${order.customerEmail} cancelled their order of ${items} at ${kitchen}.`,
        details: [['Order', items], ['Total', total], ...(slot ? [['When', slot] as [string, string]] : [])],
        ...reasonQuote(order, 'Their reason'),
        action: kitchenOrders,
      };
    case 'order-accepted': {
      const ready = slot
        ? `It will be ready for your slot: ${slot}.`
        : order.readyAt
          ? `It should be ready at about ${kitchenTime(order.readyAt, timeZone, now)}.`
          : '';
      return {
        subject: cut(`${kitchen} accepted your order`, 120),
        lead: `${kitchen} accepted your order of ${items}.${ready ? ` ${ready}` : ''}`,
        details: [
          ['Order', items],
          ['Total', total],
          ...(slot ? [['Slot', slot] as [string, string]] : []),
          ...(!slot && order.readyAt
            ? [['Ready at about', kitchenTime(order.readyAt, timeZone, now)] as [string, string]]
            : []),
          ...(order.fulfilment === 'pickup'
            ? pickupDetails(facts)
            : [['Delivery to', order.address] as [string, string]]),
        ],
        action: customerOrder,
      };
    }
    case 'order-declined':
      return {
        subject: cut(`${kitchen} declined your order`, 120),
        lead: `${kitchen} declined your order of ${items}.${order.endReason ? ` Reason: ${order.endReason}` : ''}`,
        details: [
          ['Order', items],
          ['Total', total],
        ],
        ...reasonQuote(order),
        action: customerOrder,
      };
    case 'order-cancelled':
      return {
        subject: cut(`Your order from ${kitchen} was cancelled`, 120),
        lead: `Your order of ${items} from ${kitchen} was cancelled.${order.endReason ? ` Reason: ${order.endReason}` : ''}`,
        details: [
          ['Order', items],
          ['Total', total],
        ],
        ...reasonQuote(order),
        action: customerOrder,
      };
    case 'order-dispatched':
      return order.fulfilment === 'pickup'
        ? {
            subject: cut(`Your order from ${kitchen} is ready to pick up`, 120),
            lead: `Your order of ${items} from ${kitchen} is ready to pick up.`,
            details: [['Order', items], ...pickupDetails(facts)],
            action: customerOrder,
          }
        : {
            subject: cut(`Your order from ${kitchen} is on its way`, 120),
            lead: `Your order of ${items} from ${kitchen} is on its way to ${order.address}.`,
            details: [
              ['Order', items],
              ['Delivery to', order.address],
            ],
            action: customerOrder,
          };
    case 'order-delivered':
      return {
        subject: cut(
          `Your order from ${kitchen} was ${order.fulfilment === 'pickup' ? 'picked up' : 'delivered'}`,
          120,
        ),
        lead: `Your order of ${items} from ${kitchen} was ${order.fulfilment === 'pickup' ? 'picked up' : 'delivered'}. Enjoy your meal! How was it? Rate your order: it helps other customers, and the cook.`,
        details: [
          ['Order', items],
          ['Total', total],
        ],
        action: { label: 'Rate your order', path: paths.customerOrderStatus.href() },
      };
    default:
      return null;
  }
}

async function refundMessage(db: DbOrTx, facts: OrderFacts): Promise<Message> {
  const { order, items } = facts;
  const [refund] = await db
    .select({ amountCents: ledgerEntries.amountCents, currency: ledgerEntries.currency })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.kind, 'refunded')));
  const amount = refund
    ? formatMoney(Math.abs(refund.amountCents), refund.currency)
    : formatMoney(order.totalCents, order.currency);
  return {
    subject: cut(`Refund of ${amount} from ${order.kitchenName}`, 120),
    lead: `Your order of ${items} from ${order.kitchenName} was refunded: ${amount} goes back to your card. Your bank may take a few days to show it.`,
    details: [
      ['Order', items],
      ['Refunded', amount],
    ],
    action: customerOrder,
  };
}

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(5 - n);

async function reviewMessage(db: DbOrTx, reviewId: string, recipientId: string): Promise<Message | null> {
  const [row] = await db
    .select({ review: reviews, kitchenName: kitchens.name })
    .from(reviews)
    .innerJoin(kitchens, eq(kitchens.ownerId, reviews.kitchenId))
    .where(eq(reviews.id, reviewId));
  if (!row || row.review.kitchenId !== recipientId || row.review.hiddenAt !== null) return null;
  const { review, kitchenName } = row;
  const lines = await db
    .select({ item: orderItems.item, priceCents: orderItems.priceCents })
    .from(orderItems)
    .where(eq(orderItems.orderId, review.orderId))
    .orderBy(asc(orderItems.position));
  const items = itemsText(lines);
  return {
    subject: cut(`New review of ${kitchenName}: ${review.stars} of 5 stars`, 120),
    lead: `A customer gave ${kitchenName} ${review.stars} of 5 stars (${stars(review.stars)}) for their order of ${items}.`,
    details: [
      ['Stars', `${stars(review.stars)} (${review.stars} of 5)`],
      ['Order', items],
    ],
    ...(review.text ? { quote: { label: 'Their review', text: review.text } } : {}),
    after: ['You can reply to it, once and in public, on your menu page.'],
    action: { label: 'See your reviews', path: paths.kitchenMenu.href(review.kitchenId) },
  };
}

async function reportsMessage(db: DbOrTx, kitchenUid: string, recipientId: string): Promise<Message | null> {
  if (kitchenUid !== recipientId) return null;
  const [kitchen] = await db
    .select({ name: kitchens.name })
    .from(kitchens)
    .where(eq(kitchens.ownerId, kitchenUid));
  if (!kitchen) return null;
  const [open] = await db
    .select({ n: count() })
    .from(reports)
    .where(
      and(eq(reports.targetKind, 'kitchen'), eq(reports.targetId, kitchenUid), isNull(reports.closedAt)),
    );
  const n = open?.n ?? 0;
  // Closed before this was sent: nothing to tell.
  if (n === 0) return null;
  const reportsText = n === 1 ? '1 open report' : `${n} open reports`;
  return {
    subject: cut(`${reportsText} about ${kitchen.name}`, 120),
    lead: `There ${n === 1 ? 'is' : 'are'} ${reportsText} about ${kitchen.name}. An operator of the marketplace reads ${n === 1 ? 'it' : 'them'} and may ask you about ${n === 1 ? 'it' : 'them'}, or close ${n === 1 ? 'it' : 'them'}.`,
    details: [['Open reports', String(n)]],
    action: { label: 'Open your dashboard', path: paths.menuDashboard.href() },
  };
}

/** The plain text: the lead (the push's body), the details, the quote, and the link. */
function textOf(message: Message, publicUrl: string): string {
  const parts = [oneParagraph(message.lead)];
  if (message.details?.length)
    parts.push(message.details.map(([label, value]) => `${label}: ${value}`).join('\n'));
  if (message.quote) parts.push(`${message.quote.label}:\n${message.quote.text.replace(/^/gm, '> ')}`);
  parts.push(...(message.after ?? []));
  parts.push(`${message.action.label}: ${publicUrl}${message.action.path}`);
  return parts.join('\n\n');
}

/** Simple HTML, styled inline (mail programs drop style sheets), everything in it escaped. */
function htmlOf(message: Message, publicUrl: string): string {
  const e = escapeHtml;
  const cell = 'padding:4px 12px 4px 0;vertical-align:top';
  const details = message.details?.length
    ? `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px;font-size:15px">${message.details
        .map(
          ([label, value]) =>
            `<tr><td style="${cell};color:#495057;white-space:nowrap">${e(label)}</td><td style="${cell};white-space:pre-line">${e(value)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const quote = message.quote
    ? `<p style="margin:0 0 4px;color:#495057;font-size:14px">${e(message.quote.label)}</p><blockquote style="margin:0 0 16px;padding:8px 12px;border-left:3px solid #fdba74;background:#fff7ed;white-space:pre-line">${e(message.quote.text)}</blockquote>`
    : '';
  const after = (message.after ?? []).map((p) => `<p style="margin:0 0 16px">${e(p)}</p>`).join('');
  const href = e(`${publicUrl}${message.action.path}`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(message.subject)}</title></head>
<body style="margin:0;padding:24px 12px;background:#f8f9fa;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#212529;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p style="margin:0 0 8px;font-size:13px;font-weight:700;color:#c2410c">HomeCooked</p>
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3">${e(message.subject)}</h1>
<p style="margin:0 0 16px">${e(oneParagraph(message.lead))}</p>
${details}${quote}${after}<p style="margin:24px 0 0"><a href="${href}" style="display:inline-block;background:#c2410c;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${e(message.action.label)}</a></p>
<p style="margin:16px 0 0;font-size:13px;color:#868e96">Or open this link: <a href="${href}" style="color:#9a3412">${e(`${publicUrl}${message.action.path}`)}</a></p>
</div>
</body></html>`;
}

/**
 * A notice as its recipient reads it, by email and on a device: the kitchen, the order and its dishes, and a link
 * to the page that shows it; times in the kitchen's time zone, saying so. Null when what it is about is gone (an
 * order deleted, a review hidden, every report closed) or is not the recipient's to hear of.
 */
export async function renderNotice(
  db: DbOrTx,
  notice: NoticeRef,
  publicUrl: string,
  now: Date = new Date(),
): Promise<RenderedNotice | null> {
  let message: Message | null;
  if (notice.kind === 'review-new') message = await reviewMessage(db, notice.subjectId, notice.recipientId);
  else if (notice.kind === 'reports')
    message = await reportsMessage(db, notice.subjectId, notice.recipientId);
  else {
    const facts = await orderFacts(db, notice.subjectId);
    if (!facts) return null;
    const party = NOTICE_AUDIENCE[notice.kind] === 'kitchen' ? facts.order.kitchenId : facts.order.customerId;
    if (party !== notice.recipientId) return null;
    message =
      notice.kind === 'order-refunded'
        ? await refundMessage(db, facts)
        : orderMessage(notice.kind, facts, now);
  }
  if (!message) return null;
  return {
    subject: message.subject,
    text: textOf(message, publicUrl),
    html: htmlOf(message, publicUrl),
    path: message.action.path,
  };
}
