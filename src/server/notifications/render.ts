import { and, asc, count, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { textDirection } from '../../shared/i18n/locales.js';
import type { Values } from '../../shared/i18n/messages.js';
import { translator, type Translator } from '../../shared/i18n/translator.js';
import { formatMoney } from '../../shared/money.js';
import { CAPTURE_FAILED_REASON, NO_ANSWER_REASON, UNPAID_REASON } from '../../shared/payments.js';
import { NOTICE_AUDIENCE } from '../../shared/notifications.js';
import { formatClock, formatOpening, localTime } from '../../shared/opening-hours.js';
import { upcomingWeeks } from '../../shared/plans.js';
import { itemCounts } from '../../shared/orders.js';
import { paths } from '../../shared/paths.js';
import { dayName, slotLabel } from '../../shared/slots.js';
import type { DbOrTx } from '../db/database.js';
import {
  feeChanges,
  kitchenDocuments,
  kitchenHelpers,
  kitchens,
  ledgerEntries,
  mealPlans,
  mealPlanWeekDishes,
  mealPlanWeeks,
  menuItems,
  orderItems,
  orderRefunds,
  orders,
  problemReports,
  reports,
  reviews,
} from '../db/schema.js';
import { cardText, receiptCard, receiptOf } from '../data/receipt-queries.js';
import type { PaymentProvider } from '../payments/provider.js';
import { PROBLEM_REASON_NAMES } from '../../shared/problem-reports.js';
import { DOCUMENT_LABELS } from '../../shared/kitchen-documents.js';
import { helperCardRule, listHelpers } from '../data/kitchen-documents.js';
import { kitchenPlace } from '../data/kitchen-place.js';
import type { Jurisdictions } from '../data/jurisdictions.js';
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
export function itemsText(
  lines: readonly { item: string; priceCents: number }[],
  tr: Translator = translator(),
): string {
  return lines.length === 0 ? say(tr).t('no dishes') : itemCounts(lines, tr).join(say(tr).t(', '));
}

/**
 * `tr`, with every text value put in as it is: what people typed (dishes, names, addresses, reasons) is never read
 * as part of a message, whether the message is translated or not yet (an English stand-in drops tags).
 */
function say(tr: Translator) {
  return {
    t(message: string, values: Values = {}, context?: string): string {
      const held: string[] = [];
      const marked: Values = {};
      for (const [name, value] of Object.entries(values))
        marked[name] = typeof value === 'string' ? `\uE000${held.push(value) - 1}\uE001` : value;
      return tr
        .t(message, marked, context)
        .replace(/\uE000(\d+)\uE001/g, (_, i: string) => held[Number(i)] ?? '');
    },
  };
}

/** Text cut to `max` characters (with '…'), for a subject line. */
const cut = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
};
/** One paragraph: what a person typed over several lines (an address, a reason) joined into one. */
const oneParagraph = (text: string) => text.replace(/\s+/g, ' ').trim();

/** 'Today 7:45 PM (Asia/Kolkata time)': a moment in the kitchen's time zone, saying so. */
const kitchenTime = (at: Date, timeZone: string, now: Date, tr: Translator) =>
  // translators: a day ('Today', 'Fri 27 Nov'), a time ('7:45 PM') and the kitchen's time zone
  say(tr).t('{day} {time} ({timeZone} time)', {
    day: dayName(at, timeZone, now, tr),
    time: formatClock(localTime(at, timeZone).minutes, tr),
    timeZone,
  });

const slotOf = (order: OrderRow, timeZone: string, now: Date, tr: Translator) =>
  order.slotStart && order.slotEnd
    ? // translators: a time slot ('Today 6:00–6:30 PM') and the kitchen's time zone
      say(tr).t('{slot} ({timeZone} time)', {
        slot: slotLabel(
          { start: order.slotStart.toISOString(), end: order.slotEnd.toISOString() },
          timeZone,
          now,
          tr,
        ),
        timeZone,
      })
    : null;

async function orderFacts(db: DbOrTx, orderId: string, tr: Translator): Promise<OrderFacts | null> {
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
    items: itemsText(lines, tr),
    timeZone: row.timeZone ?? 'UTC',
    pickup:
      row.pickupAddress !== null
        ? { address: row.pickupAddress, instructions: row.pickupInstructions ?? '' }
        : null,
  };
}

const kitchenOrders = (tr: Translator) => ({
  label: say(tr).t('Open your orders'),
  path: paths.kitchenOrders.href(),
});
const customerOrder = (tr: Translator) => ({
  label: say(tr).t('See your order'),
  path: paths.customerOrderStatus.href(),
});

// The reasons the marketplace itself gives (messages, said in the recipient's language); a cook's are as typed.
const OUR_REASONS: ReadonlySet<string> = new Set([UNPAID_REASON, NO_ANSWER_REASON, CAPTURE_FAILED_REASON]);
const reasonOf = (order: OrderRow, tr: Translator) =>
  order.endReason && OUR_REASONS.has(order.endReason) ? say(tr).t(order.endReason) : order.endReason;

const reasonQuote = (order: OrderRow, label: string, tr: Translator) => {
  const text = reasonOf(order, tr);
  return text ? { quote: { label, text } } : {};
};

/** Where to collect a pickup order, once the kitchen accepted it. */
const pickupDetails = (facts: OrderFacts, tr: Translator): [string, string][] =>
  facts.order.fulfilment === 'pickup' && facts.pickup
    ? [
        [say(tr).t('Pick up at'), facts.pickup.address],
        ...(facts.pickup.instructions
          ? [[say(tr).t('How'), facts.pickup.instructions] as [string, string]]
          : []),
      ]
    : [];

/** 'New order: Dal × 2' and the like: a kitchen's name, the order's dishes, and a reason (the order's own). */
function orderMessage(kind: NoticeRef['kind'], facts: OrderFacts, now: Date, tr: Translator): Message | null {
  const { order, items, timeZone } = facts;
  const kitchen = order.kitchenName;
  const total = formatMoney(order.totalCents, order.currency, tr);
  const slot = slotOf(order, timeZone, now, tr);
  const pickup = order.fulfilment === 'pickup';
  const values = { items, kitchen, total, customer: order.customerEmail, slot, address: order.address };
  const orderDetail: [string, string] = [
    say(tr).t('Order', {}, 'email: the label before the dishes ordered'),
    items,
  ];
  const totalDetail: [string, string] = [say(tr).t('Total'), total];
  const whenDetail = slot ? [[say(tr).t('When'), slot] as [string, string]] : [];
  // A reason given (a decline's, a cancellation's) ends the lead.
  const withReason = (lead: string) =>
    order.endReason ? say(tr).t('{lead} Reason: {reason}', { lead, reason: reasonOf(order, tr) }) : lead;
  switch (kind) {
    case 'order-new':
      return {
        subject: cut(say(tr).t('New order: {items}', values), 120),
        lead: slot
          ? pickup
            ? say(tr).t(
                '{customer} ordered {items} from {kitchen}: {total}, pickup for {slot}. Accept or decline it on your orders page.',
                values,
              )
            : say(tr).t(
                '{customer} ordered {items} from {kitchen}: {total}, delivery for {slot}. Accept or decline it on your orders page.',
                values,
              )
          : pickup
            ? say(tr).t(
                '{customer} ordered {items} from {kitchen}: {total}, pickup, as soon as possible. Accept or decline it on your orders page.',
                values,
              )
            : say(tr).t(
                '{customer} ordered {items} from {kitchen}: {total}, delivery, as soon as possible. Accept or decline it on your orders page.',
                values,
              ),
        details: [
          orderDetail,
          [say(tr).t('From', {}, 'email: the label before who ordered'), order.customerEmail],
          totalDetail,
          pickup
            ? [say(tr).t('Pickup'), say(tr).t('The customer collects it')]
            : [say(tr).t('Delivery'), order.address],
          [say(tr).t('When'), slot ?? say(tr).t('As soon as possible')],
          ...(order.answerBy
            ? [[say(tr).t('Answer by'), kitchenTime(order.answerBy, timeZone, now, tr)] as [string, string]]
            : []),
        ],
        ...(order.note ? { quote: { label: say(tr).t('Note for the cook'), text: order.note } } : {}),
        action: kitchenOrders(tr),
      };
    case 'order-unanswered':
      return {
        subject: cut(say(tr).t('Order declined, nobody answered in time: {items}', values), 120),
        lead: say(tr).t(
          'The order of {items} from {customer} at {kitchen} was declined because nobody answered it in time. Its customer has been told.',
          values,
        ),
        details: [orderDetail, totalDetail, ...whenDetail],
        action: kitchenOrders(tr),
      };
    case 'order-cancelled-by-customer':
      return {
        subject: cut(say(tr).t('Order cancelled by the customer: {items}', values), 120),
        lead: say(tr).t('{customer} cancelled their order of {items} at {kitchen}.', values),
        details: [orderDetail, totalDetail, ...whenDetail],
        ...reasonQuote(order, say(tr).t('Their reason'), tr),
        action: kitchenOrders(tr),
      };
    case 'order-accepted': {
      const readyAt = order.readyAt ? kitchenTime(order.readyAt, timeZone, now, tr) : null;
      return {
        subject: cut(say(tr).t('{kitchen} accepted your order', values), 120),
        lead: slot
          ? say(tr).t(
              '{kitchen} accepted your order of {items}. It will be ready for your slot: {slot}.',
              values,
            )
          : readyAt
            ? say(tr).t('{kitchen} accepted your order of {items}. It should be ready at about {readyAt}.', {
                ...values,
                readyAt,
              })
            : say(tr).t('{kitchen} accepted your order of {items}.', values),
        details: [
          orderDetail,
          totalDetail,
          ...(slot ? [[say(tr).t('Slot'), slot] as [string, string]] : []),
          ...(!slot && readyAt ? [[say(tr).t('Ready at about'), readyAt] as [string, string]] : []),
          ...(pickup
            ? pickupDetails(facts, tr)
            : [[say(tr).t('Delivery to'), order.address] as [string, string]]),
        ],
        action: customerOrder(tr),
      };
    }
    case 'order-declined':
      return {
        subject: cut(say(tr).t('{kitchen} declined your order', values), 120),
        lead: withReason(say(tr).t('{kitchen} declined your order of {items}.', values)),
        details: [orderDetail, totalDetail],
        ...reasonQuote(order, say(tr).t('Reason'), tr),
        action: customerOrder(tr),
      };
    case 'order-cancelled':
      return {
        subject: cut(say(tr).t('Your order from {kitchen} was cancelled', values), 120),
        lead: withReason(say(tr).t('Your order of {items} from {kitchen} was cancelled.', values)),
        details: [orderDetail, totalDetail],
        ...reasonQuote(order, say(tr).t('Reason'), tr),
        action: customerOrder(tr),
      };
    case 'order-dispatched':
      return pickup
        ? {
            subject: cut(say(tr).t('Your order from {kitchen} is ready to pick up', values), 120),
            lead: say(tr).t('Your order of {items} from {kitchen} is ready to pick up.', values),
            details: [orderDetail, ...pickupDetails(facts, tr)],
            action: customerOrder(tr),
          }
        : {
            subject: cut(say(tr).t('Your order from {kitchen} is on its way', values), 120),
            lead: say(tr).t('Your order of {items} from {kitchen} is on its way to {address}.', values),
            details: [orderDetail, [say(tr).t('Delivery to'), order.address]],
            action: customerOrder(tr),
          };
    case 'order-delivered':
      return {
        subject: cut(
          pickup
            ? say(tr).t('Your order from {kitchen} was picked up', values)
            : say(tr).t('Your order from {kitchen} was delivered', values),
          120,
        ),
        lead: pickup
          ? say(tr).t(
              'Your order of {items} from {kitchen} was picked up. Enjoy your meal! How was it? Rate your order: it helps other customers, and the cook.',
              values,
            )
          : say(tr).t(
              'Your order of {items} from {kitchen} was delivered. Enjoy your meal! How was it? Rate your order: it helps other customers, and the cook.',
              values,
            ),
        details: [orderDetail, totalDetail],
        action: { label: say(tr).t('Rate your order'), path: paths.customerOrderStatus.href() },
      };
    default:
      return null;
  }
}

/** One part of an order given back: its dishes (or an amount), to the card, as store credit, or both. */
function refundPartMessage(
  refund: typeof orderRefunds.$inferSelect,
  facts: OrderFacts,
  tr: Translator,
): Message | null {
  if (refund.state !== 'refunded') return null;
  const { order } = facts;
  const money = (cents: number) => formatMoney(cents, order.currency, tr);
  const card = refund.amountCents - refund.creditCents;
  const values = {
    amount: money(refund.amountCents),
    card: money(card),
    credit: money(refund.creditCents),
    kitchen: order.kitchenName,
  };
  const what =
    refund.lines.length > 0
      ? refund.lines.map((line) => `${line.quantity} × ${line.name}`).join(', ')
      : say(tr).t('An amount of the order');
  return {
    subject: cut(say(tr).t('Refund of {amount} from {kitchen}', values), 120),
    lead:
      refund.creditCents === 0
        ? say(tr).t(
            '{kitchen} refunded {amount} of your order: it goes back to your card. Your bank may take a few days to show it.',
            values,
          )
        : card === 0
          ? say(tr).t(
              '{kitchen} refunded {amount} of your order as store credit: it is in your account now, for any kitchen’s order.',
              values,
            )
          : say(tr).t(
              '{kitchen} refunded {amount} of your order: {card} goes back to your card and {credit} is store credit in your account.',
              values,
            ),
    details: [
      [say(tr).t('Refunded for'), what],
      [say(tr).t('Refunded'), values.amount],
    ],
    action: customerOrder(tr),
  };
}

async function refundMessage(db: DbOrTx, facts: OrderFacts, tr: Translator): Promise<Message | null> {
  const { order, items } = facts;
  // Refunded in parts: each part had its own email.
  const [parts] = await db
    .select({ n: count() })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, order.id), eq(orderRefunds.state, 'refunded')));
  if ((parts?.n ?? 0) > 0) return null;
  const [refund] = await db
    .select({ amountCents: ledgerEntries.amountCents, currency: ledgerEntries.currency })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.kind, 'refunded')));
  const amount = refund
    ? formatMoney(Math.abs(refund.amountCents), refund.currency, tr)
    : formatMoney(order.totalCents, order.currency, tr);
  const values = { amount, items, kitchen: order.kitchenName };
  return {
    subject: cut(say(tr).t('Refund of {amount} from {kitchen}', values), 120),
    lead: say(tr).t(
      'Your order of {items} from {kitchen} was refunded: {amount} goes back to your card. Your bank may take a few days to show it.',
      values,
    ),
    details: [
      [say(tr).t('Order', {}, 'email: the label before the dishes ordered'), items],
      [say(tr).t('Refunded'), amount],
    ],
    action: customerOrder(tr),
  };
}

/**
 * The receipt of an order whose money was taken: what was paid, with which card (learnt as the receipt's page learns
 * it, and said in the same words), and a link to the receipt's page. What the email says is what was paid: refunds
 * and later tips are appended on the page, never written into an email already sent.
 */
async function receiptMessage(
  db: DbOrTx,
  facts: OrderFacts,
  tr: Translator,
  provider: PaymentProvider | undefined,
): Promise<Message | null> {
  const receipt = await receiptOf(db, facts.order.id);
  if (!receipt) return null;
  const card = await receiptCard(db, provider, receipt);
  const money = (minor: number) => formatMoney(minor, receipt.currency, tr);
  const values = { kitchen: receipt.kitchenName, total: money(receipt.totalCents), number: receipt.number };
  return {
    subject: cut(say(tr).t('Your receipt from {kitchen}: {total}', values), 120),
    lead: say(tr).t('{kitchen} received your payment of {total}. Receipt {number}.', values),
    details: [
      [say(tr).t('Order', {}, 'email: the label before the dishes ordered'), facts.items],
      ...(receipt.permitNumber
        ? [[say(tr).t('Permit number'), receipt.permitNumber] as [string, string]]
        : []),
      [say(tr).t('Items'), money(receipt.itemsCents)],
      ...(receipt.fulfilment === 'delivery'
        ? [[say(tr).t('Delivery fee'), money(receipt.deliveryFeeCents)] as [string, string]]
        : []),
      [say(tr).t('Fees and Estimated Tax'), money(receipt.feesAndTaxCents)],
      ...(receipt.tipCents > 0
        ? [[say(tr).t('Tip for the cook'), money(receipt.tipCents)] as [string, string]]
        : []),
      [say(tr).t('Total'), money(receipt.totalCents)],
      [say(tr).t('Paid'), kitchenTime(receipt.paidAt, receipt.timeZone, receipt.paidAt, tr)],
      ...(card ? [[say(tr).t('Paid by card'), cardText(card, tr)] as [string, string]] : []),
    ],
    action: { label: say(tr).t('See your receipt'), path: `/api/orders/${receipt.orderId}/receipt` },
  };
}

/** A customer reported a problem with an order: the cook is told what and is sent to the order. */
async function problemMessage(db: DbOrTx, facts: OrderFacts, tr: Translator): Promise<Message | null> {
  const [report] = await db
    .select()
    .from(problemReports)
    .where(eq(problemReports.orderId, facts.order.id))
    .orderBy(desc(problemReports.createdAt))
    .limit(1);
  if (!report) return null;
  const values = { items: facts.items, reason: say(tr).t(PROBLEM_REASON_NAMES[report.reason]) };
  const dishes = report.dishes
    .map((d) =>
      d.quantity > 1 ? say(tr).t('{item} × {quantity}', { item: d.item, quantity: d.quantity }) : d.item,
    )
    .join(say(tr).t(', '));
  return {
    subject: cut(say(tr).t('A problem with an order: {reason}', values), 120),
    lead: say(tr).t(
      'The customer of the order of {items} reported a problem: {reason}. Answer them in the order’s messages, refund the dishes, or close the report saying why.',
      values,
    ),
    details: [[say(tr).t('Dishes concerned'), dishes || say(tr).t('no dishes')]],
    ...(report.details ? { quote: { label: say(tr).t('In their words'), text: report.details } } : {}),
    action: kitchenOrders(tr),
  };
}

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(5 - n);

async function reviewMessage(
  db: DbOrTx,
  reviewId: string,
  recipientId: string,
  tr: Translator,
): Promise<Message | null> {
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
  const items = itemsText(lines, tr);
  const values = { kitchen: kitchenName, stars: review.stars, drawn: stars(review.stars), items };
  return {
    subject: cut(say(tr).t('New review of {kitchen}: {stars} of 5 stars', values), 120),
    lead: say(tr).t(
      'A customer gave {kitchen} {stars} of 5 stars ({drawn}) for their order of {items}.',
      values,
    ),
    details: [
      [say(tr).t('Stars'), say(tr).t('{drawn} ({stars} of 5)', values)],
      [say(tr).t('Order', {}, 'email: the label before the dishes ordered'), items],
    ],
    ...(review.text ? { quote: { label: say(tr).t('Their review'), text: review.text } } : {}),
    after: [say(tr).t('You can reply to it, once and in public, on your menu page.')],
    action: { label: say(tr).t('See your reviews'), path: paths.kitchenMenu.href(review.kitchenId) },
  };
}

async function reportsMessage(
  db: DbOrTx,
  kitchenUid: string,
  recipientId: string,
  tr: Translator,
): Promise<Message | null> {
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
  // One report and several are whole sentences each ({count} is 2 or more in the second: a language with more
  // plural forms says them with a plural of {count}).
  const values = { kitchen: kitchen.name, count: n };
  return {
    subject: cut(
      n === 1
        ? say(tr).t('1 open report about {kitchen}', values)
        : say(tr).t('{count} open reports about {kitchen}', values),
      120,
    ),
    lead:
      n === 1
        ? say(tr).t(
            'There is 1 open report about {kitchen}. An operator of the marketplace reads it and may ask you about it, or close it.',
            values,
          )
        : say(tr).t(
            'There are {count} open reports about {kitchen}. An operator of the marketplace reads them and may ask you about them, or close them.',
            values,
          ),
    details: [[say(tr).t('Open reports'), tr.number(n)]],
    action: { label: say(tr).t('Open your dashboard'), path: paths.menuDashboard.href() },
  };
}

/**
 * A permit or certificate about to expire: which, its number, the day, and what happens then (the kitchen stops
 * taking orders by itself until a valid one is added). Null once a newer one of its kind is there.
 */
async function documentMessage(
  db: DbOrTx,
  documentId: string,
  recipientId: string,
  now: Date,
  tr: Translator,
): Promise<Message | null> {
  const [row] = await db
    .select({ document: kitchenDocuments, kitchenName: kitchens.name, timeZone: kitchens.timeZone })
    .from(kitchenDocuments)
    .innerJoin(kitchens, eq(kitchens.ownerId, kitchenDocuments.kitchenId))
    .where(eq(kitchenDocuments.id, documentId));
  if (!row || row.document.kitchenId !== recipientId) return null;
  const { document } = row;
  const [renewed] = await db
    .select({ id: kitchenDocuments.id })
    .from(kitchenDocuments)
    .where(
      and(
        eq(kitchenDocuments.kitchenId, document.kitchenId),
        eq(kitchenDocuments.kind, document.kind),
        eq(kitchenDocuments.holder, document.holder),
        gt(kitchenDocuments.expiresOn, document.expiresOn),
      ),
    )
    .limit(1);
  if (renewed) return null;
  const today = localTime(now, row.timeZone).date;
  const days = Math.round((Date.parse(document.expiresOn) - Date.parse(today)) / 86_400_000);
  const date = tr.date(new Date(`${document.expiresOn}T12:00:00Z`), 'date');
  const values = {
    document: tr.t(DOCUMENT_LABELS[document.kind]).toLowerCase(),
    number: document.number,
    date,
    days,
    kitchen: row.kitchenName,
  };
  return {
    subject: cut(
      days <= 1
        ? say(tr).t('Your {document} expires tomorrow', values)
        : say(tr).t('Your {document} expires in {days} days', values),
      120,
    ),
    lead: say(tr).t(
      'Your {document} ({number}) expires on {date}. Add the renewed one before then: from the day after, {kitchen} stops taking orders by itself until a valid one is added.',
      values,
    ),
    details: [
      [
        tr.t(DOCUMENT_LABELS[document.kind]),
        document.holder ? `${document.number} (${document.holder})` : document.number,
      ],
      [say(tr).t('Expires on'), date],
    ],
    action: { label: say(tr).t('Open the rules for your kitchen'), path: paths.kitchenRules.href() },
  };
}

/**
 * A helper's food handler card soon due (the kitchen's rules ask for it within N days of their start): whose, by
 * when, and that the kitchen stops taking orders after that day. Null when the helper is gone, is not the
 * recipient's, or has a card now.
 */
async function helperCardMessage(
  db: DbOrTx,
  jurisdictions: Jurisdictions,
  helperId: string,
  recipientId: string,
  now: Date,
  tr: Translator,
): Promise<Message | null> {
  const [row] = await db
    .select({ helper: kitchenHelpers, kitchenName: kitchens.name })
    .from(kitchenHelpers)
    .innerJoin(kitchens, eq(kitchens.ownerId, kitchenHelpers.kitchenId))
    .where(eq(kitchenHelpers.id, helperId));
  const where = await kitchenPlace(db, recipientId);
  if (!row || !where || row.helper.kitchenId !== recipientId) return null;
  const rule = helperCardRule(jurisdictions.forPlace(where.place).rules);
  const today = localTime(now, where.timeZone).date;
  const helper = (await listHelpers(db, recipientId, rule)).find((h) => h.id === helperId);
  if (!helper?.dueOn || (helper.card && helper.card.expiresOn >= today)) return null;
  const dueOn = helper.dueOn;
  const days = Math.round((Date.parse(dueOn) - Date.parse(today)) / 86_400_000);
  const date = tr.date(new Date(`${dueOn}T12:00:00Z`), 'date');
  const values = { name: row.helper.name, date, days, kitchen: row.kitchenName };
  return {
    subject: cut(
      days <= 1
        ? say(tr).t('{name}’s food handler card is due tomorrow', values)
        : say(tr).t('{name}’s food handler card is due in {days} days', values),
      120,
    ),
    lead: say(tr).t(
      'Add {name}’s food handler card by {date}: from the day after, {kitchen} stops taking orders by itself until it is added.',
      values,
    ),
    details: [
      [say(tr).t('Helper'), row.helper.name],
      [say(tr).t('Due by'), date],
    ],
    action: { label: say(tr).t('Open the rules for your kitchen'), path: paths.kitchenRules.href() },
  };
}

/**
 * A week of a weekly plan that could not be placed at its cut-off: which kitchen, the week's slot, why (the order's
 * refusal, in the recipient's language), and that the plan goes on. Null when it is not the recipient's plan.
 */
async function planWeekMessage(
  db: DbOrTx,
  weekId: string,
  recipientId: string,
  tr: Translator,
): Promise<Message | null> {
  const [row] = await db
    .select({
      week: mealPlanWeeks,
      customerId: mealPlans.customerId,
      slotTime: mealPlans.slotTime,
      kitchenName: kitchens.name,
      timeZone: kitchens.timeZone,
    })
    .from(mealPlanWeeks)
    .innerJoin(mealPlans, eq(mealPlans.id, mealPlanWeeks.planId))
    .innerJoin(kitchens, eq(kitchens.ownerId, mealPlans.kitchenId))
    .where(eq(mealPlanWeeks.id, weekId));
  if (!row || row.customerId !== recipientId || row.week.state !== 'failed') return null;
  const date = tr.date(new Date(`${row.week.slotDate}T12:00:00Z`), 'date');
  const [hours, minutes] = row.slotTime.split(':').map(Number) as [number, number];
  const values = { kitchen: row.kitchenName, date, time: formatClock(hours * 60 + minutes, tr) };
  const reason = row.week.reason ? tr.t(row.week.reason, row.week.reasonValues ?? {}) : '';
  return {
    subject: cut(say(tr).t('Your weekly order from {kitchen} for {date} was not placed', values), 120),
    lead: say(tr).t(
      'Your weekly plan could not place its order from {kitchen} for {date} at {time}. Nothing was charged, and your plan goes on next week.',
      values,
    ),
    ...(reason ? { quote: { label: say(tr).t('Why'), text: reason } } : {}),
    action: { label: say(tr).t('Open your plans'), path: `${paths.customerOrders.href()}#plans` },
  };
}

/**
 * A card plan's week whose saved card needs its holder (the bank asks for authentication): its order waits for the
 * customer to pay it on its page before the page closes, else the week is skipped. Dropped once the order is paid
 * or ended.
 */
async function planCardMessage(
  db: DbOrTx,
  orderId: string,
  recipientId: string,
  tr: Translator,
): Promise<Message | null> {
  const [row] = await db
    .select({
      customerId: orders.customerId,
      state: orders.state,
      slotStart: orders.slotStart,
      closesAt: orders.checkoutExpiresAt,
      kitchenName: kitchens.name,
      timeZone: kitchens.timeZone,
    })
    .from(orders)
    .innerJoin(kitchens, eq(kitchens.ownerId, orders.kitchenId))
    .where(eq(orders.id, orderId));
  if (!row || row.customerId !== recipientId || row.state !== 'awaiting payment' || !row.slotStart)
    return null;
  const values = {
    kitchen: row.kitchenName,
    when: formatOpening(row.slotStart, row.timeZone, tr),
    until: row.closesAt ? formatOpening(row.closesAt, row.timeZone, tr) : '',
  };
  return {
    subject: say(tr).t("Your card needs you: confirm this week's payment"),
    lead: say(tr).t(
      'Your bank asks you to confirm the payment of your weekly order from {kitchen} for {when}. Pay it by {until}, or this week is skipped; your plan goes on.',
      values,
    ),
    action: { label: say(tr).t('Pay now'), path: paths.customerOrders.href() },
  };
}

/**
 * The reminder of a plan's week the day before its cut-off: the dishes it will order, when, and until when it can be
 * skipped or changed. Rendered when sent: about the plan's next week if its cut-off is still ahead and within a day
 * and a bit (a notice sent late, after the cut-off, is dropped: the week is placed or failed, and told so).
 */
async function planReminderMessage(
  db: DbOrTx,
  planId: string,
  recipientId: string,
  now: Date,
  tr: Translator,
): Promise<Message | null> {
  const [row] = await db
    .select({
      plan: mealPlans,
      kitchenName: kitchens.name,
      timeZone: kitchens.timeZone,
      cutoffHours: kitchens.planCutoffHours,
    })
    .from(mealPlans)
    .innerJoin(kitchens, eq(kitchens.ownerId, mealPlans.kitchenId))
    .where(eq(mealPlans.id, planId));
  if (!row || row.plan.customerId !== recipientId || row.plan.status !== 'active') return null;
  const timing = {
    weekday: row.plan.weekday,
    slotTime: row.plan.slotTime,
    timeZone: row.timeZone,
    cutoffHours: row.cutoffHours,
  };
  const [week] = upcomingWeeks(timing, now, 1);
  const left = week ? week.cutoff.getTime() - now.getTime() : 0;
  if (!week || left <= 0 || left > 26 * 3_600_000) return null;
  // The week's own dishes where its customer changed them for it, else the plan's.
  const [own] = await db
    .select({ itemIds: mealPlanWeekDishes.itemIds })
    .from(mealPlanWeekDishes)
    .where(and(eq(mealPlanWeekDishes.planId, planId), eq(mealPlanWeekDishes.slotDate, week.slotDate)));
  const itemIds = own?.itemIds ?? row.plan.itemIds;
  const dishes = await db
    .select({ id: menuItems.id, item: menuItems.item })
    .from(menuItems)
    .where(inArray(menuItems.id, itemIds));
  const names = new Map(dishes.map((dish) => [dish.id, dish.item]));
  const lines = itemIds.flatMap((id) => {
    const item = names.get(id);
    return item === undefined ? [] : [{ item }];
  });
  const values = {
    kitchen: row.kitchenName,
    date: tr.date(new Date(`${week.slotDate}T12:00:00Z`), 'date'),
    time: formatClock(localTime(week.slotStart, row.timeZone).minutes, tr),
    cutoff: formatOpening(week.cutoff, row.timeZone, tr),
    dishes:
      row.plan.cooksChoice && row.plan.budgetCents !== null
        ? say(tr).t("the cook's choice (up to {budget})", { budget: tr.money(row.plan.budgetCents) })
        : itemCounts(lines, tr).join(', '),
  };
  return {
    subject: cut(
      say(tr).t('Your weekly order from {kitchen} for {date}: change it by {cutoff}', values),
      120,
    ),
    lead: say(tr).t(
      'Your plan orders {dishes} from {kitchen} for {date} at {time}. It is placed at its cut-off, {cutoff}: skip this week or change it before then.',
      values,
    ),
    action: { label: say(tr).t('Skip this week'), path: `${paths.customerOrders.href()}#plans` },
  };
}

/** A change of the platform's commission, announced to a cook at least 30 days before it applies (ADR 27). */
async function feeChangeMessage(db: DbOrTx, feeChangeId: string, tr: Translator): Promise<Message | null> {
  const [change] = await db.select().from(feeChanges).where(eq(feeChanges.id, feeChangeId));
  if (!change) return null;
  const date = tr.date(new Date(`${change.effectiveOn}T12:00:00Z`), 'date');
  const percent = tr.numberFormat({ maximumFractionDigits: 2 }).format(change.commissionBasisPoints / 100);
  return {
    subject: cut(say(tr).t("HomeCooked's fees change on {date}", { date }), 120),
    lead: say(tr).t(
      "From {date}, the marketplace's share of a card order's dishes will be {percent} %. Orders placed before then keep today's fees.",
      { date, percent },
    ),
    details: [
      [say(tr).t('New commission'), `${percent} %`],
      [say(tr).t('Applies from'), date],
    ],
    action: { label: say(tr).t('Open the rules for your kitchen'), path: paths.kitchenRules.href() },
  };
}

/** The plain text: the lead (the push's body), the details, the quote, and the link. */
function textOf(message: Message, publicUrl: string, tr: Translator): string {
  // translators: a label and its value on one line of a plain-text email ('Total: $32.45')
  const line = (label: string, value: string) => say(tr).t('{label}: {value}', { label, value });
  const parts = [oneParagraph(message.lead)];
  if (message.details?.length)
    parts.push(message.details.map(([label, value]) => line(label, value)).join('\n'));
  if (message.quote)
    parts.push(`${line(message.quote.label, '').trimEnd()}\n${message.quote.text.replace(/^/gm, '> ')}`);
  parts.push(...(message.after ?? []));
  parts.push(line(message.action.label, `${publicUrl}${message.action.path}`));
  return parts.join('\n\n');
}

/** Simple HTML, styled inline (mail programs drop style sheets), everything in it escaped. */
function htmlOf(message: Message, publicUrl: string, tr: Translator): string {
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
<html lang="${tr.locale}"${textDirection(tr.locale) === 'rtl' ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(message.subject)}</title></head>
<body style="margin:0;padding:24px 12px;background:#f8f9fa;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#212529;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p style="margin:0 0 8px;font-size:13px;font-weight:700;color:#c2410c">HomeCooked</p>
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3">${e(message.subject)}</h1>
<p style="margin:0 0 16px">${e(oneParagraph(message.lead))}</p>
${details}${quote}${after}<p style="margin:24px 0 0"><a href="${href}" style="display:inline-block;background:#c2410c;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${e(message.action.label)}</a></p>
<p style="margin:16px 0 0;font-size:13px;color:#868e96">${e(say(tr).t('Or open this link:'))} <a href="${href}" style="color:#9a3412">${e(`${publicUrl}${message.action.path}`)}</a></p>
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
  /** The recipient's language. */
  tr: Translator = translator(),
  /**
   * What some notices need besides the database: the rules of places (a helper's card is due as many days after
   * their start as the kitchen's rules say), and the card payments' provider (a receipt asks it for the card when
   * the order does not know it yet).
   */
  { jurisdictions, provider }: { jurisdictions?: Jurisdictions; provider?: PaymentProvider } = {},
): Promise<RenderedNotice | null> {
  let message: Message | null;
  if (notice.kind === 'review-new')
    message = await reviewMessage(db, notice.subjectId, notice.recipientId, tr);
  else if (notice.kind === 'fee-change') message = await feeChangeMessage(db, notice.subjectId, tr);
  else if (notice.kind === 'document-expiring')
    message = await documentMessage(db, notice.subjectId, notice.recipientId, now, tr);
  else if (notice.kind === 'helper-card-due')
    message = jurisdictions
      ? await helperCardMessage(db, jurisdictions, notice.subjectId, notice.recipientId, now, tr)
      : null;
  else if (notice.kind === 'plan-week-reminder')
    message = await planReminderMessage(db, notice.subjectId, notice.recipientId, now, tr);
  else if (notice.kind === 'plan-card-needs-you')
    message = await planCardMessage(db, notice.subjectId, notice.recipientId, tr);
  else if (notice.kind === 'plan-week-failed')
    message = await planWeekMessage(db, notice.subjectId, notice.recipientId, tr);
  else if (notice.kind === 'reports')
    message = await reportsMessage(db, notice.subjectId, notice.recipientId, tr);
  else {
    // A refund's notice is about one part given back (its subject is the refund); the order's own 'refunded' notice is
    // about a payment refunded whole at once (a cancellation), not by such parts, which were each told.
    const [part] =
      notice.kind === 'order-refunded'
        ? await db.select().from(orderRefunds).where(eq(orderRefunds.id, notice.subjectId))
        : [];
    const facts = await orderFacts(db, part?.orderId ?? notice.subjectId, tr);
    if (!facts) return null;
    const party = NOTICE_AUDIENCE[notice.kind] === 'kitchen' ? facts.order.kitchenId : facts.order.customerId;
    if (party !== notice.recipientId) return null;
    message =
      notice.kind === 'order-refunded'
        ? part
          ? refundPartMessage(part, facts, tr)
          : await refundMessage(db, facts, tr)
        : notice.kind === 'order-receipt'
          ? await receiptMessage(db, facts, tr, provider)
          : notice.kind === 'order-problem'
            ? await problemMessage(db, facts, tr)
            : orderMessage(notice.kind, facts, now, tr);
  }
  if (!message) return null;
  return {
    subject: message.subject,
    text: textOf(message, publicUrl, tr),
    html: htmlOf(message, publicUrl, tr),
    path: message.action.path,
  };
}
