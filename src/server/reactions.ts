import type { DomainEvent } from './events/domain-events.js';
import type { Reactions } from './events/mutate.js';
import type { BusMessage } from './live/bus.js';
import type { Topic } from './live/topic.js';
import type { Notice } from './events/notices.js';
import type { NoticeKind } from '../shared/notifications.js';
import { chatHiddenTopic, chatTopic } from './chat/chat-topic.js';
import { kitchensFirstPageTopic, kitchensTopic, kitchenTopic } from './data/kitchens-topic.js';
import { menuTopic } from './data/menu-topic.js';
import { moderationTopic } from './moderation/moderation-topic.js';
import { orderMessagesTopic } from './order-messages/order-messages-topic.js';
import {
  customerOrdersTopic,
  customerOrderTopic,
  kitchenOrdersTopic,
  kitchenPastOrdersTopic,
} from './orders/order-topics.js';
import { reviewsTopic } from './reviews/reviews-topic.js';
import { catalogTopic } from './search/catalog-topic.js';
import { slotsTopic } from './orders/slots-topic.js';

/** A live list that changed: its key on the change bus. */
type Change = string;
const changed = <P, T>(topic: Topic<P, T>, ...params: P extends void ? [] : [P]): Change =>
  topic.key(params[0] as never);

/** Everything that shows a kitchen to the public: the landing page's list, its page's header, search. */
const kitchenShown = (uid: string): Change[] => [
  changed(kitchensTopic),
  changed(kitchensFirstPageTopic),
  changed(kitchenTopic, uid),
  changed(catalogTopic),
];

/** An order's lists on both sides; either side may be gone (a deleted account), and with it its lists. */
const orderLists = (kitchenUid: string | null, customerId: string | null): Change[] => [
  ...(kitchenUid === null
    ? []
    : [changed(kitchenOrdersTopic, kitchenUid), changed(kitchenPastOrdersTopic, kitchenUid)]),
  ...(customerId === null
    ? []
    : [changed(customerOrderTopic, customerId), changed(customerOrdersTopic, customerId)]),
];

/** A review changed what a kitchen's pages show: its rating (cards, search, menu page) and its reviews. */
const reviewShown = (kitchenUid: string): Change[] => [
  ...kitchenShown(kitchenUid),
  changed(reviewsTopic, kitchenUid),
];

/** An order's conversation: its messages, and whether it may still be written on, which any change of it may move. */
const conversationOf = (event: DomainEvent): Change[] =>
  event.type.startsWith('order.') && 'orderId' in event ? [changed(orderMessagesTopic, event.orderId)] : [];

/**
 * A kitchen's slots (computed once per change, src/server/orders/slots-topic.ts): any change of the kitchen (hours,
 * zone, ordering, pause, suspension, listing) or of one of its orders (a slot booked, or given back) may move them.
 */
const slotsOf = (event: DomainEvent): Change[] =>
  (event.type.startsWith('kitchen.') ||
    event.type.startsWith('order.') ||
    event.type === 'account.deleted') &&
  'kitchenUid' in event &&
  event.kitchenUid
    ? [changed(slotsTopic, event.kitchenUid)]
    : [];

/** The live lists an event changes. */
export function changesOf(event: DomainEvent): Change[] {
  switch (event.type) {
    case 'kitchen.registered':
      // Its menu now exists (empty) rather than "no such kitchen".
      return [...kitchenShown(event.kitchenUid), changed(menuTopic, event.kitchenUid)];
    case 'kitchen.updated':
      // A new time zone moves the kitchen's "today", and with it the portions left.
      return [
        ...kitchenShown(event.kitchenUid),
        ...(event.zoneChanged ? [changed(menuTopic, event.kitchenUid)] : []),
      ];
    case 'kitchen.paused':
    case 'kitchen.resumed':
      return kitchenShown(event.kitchenUid);
    case 'kitchen.ordering-changed':
      // Its page says how it takes orders (and when an order can be for).
      return [changed(kitchenTopic, event.kitchenUid)];
    case 'kitchen.suspended':
    case 'kitchen.reinstated':
      return [...kitchenShown(event.kitchenUid), changed(menuTopic, event.kitchenUid)];
    case 'kitchen.listing-changed':
      // In or out of the lists, and in or out of the operator's queue.
      return [
        ...kitchenShown(event.kitchenUid),
        changed(menuTopic, event.kitchenUid),
        changed(reviewsTopic, event.kitchenUid),
        changed(moderationTopic),
      ];
    case 'document.added':
    case 'document.file-attached':
      // Its permit number may be on its page (read with its booking, not a live list).
      return [];
    case 'document.expiring':
    case 'helper.changed':
    case 'helper-card.due':
    case 'fees.change-announced':
      return [];
    case 'dish.added':
    case 'dish.changed':
    case 'dish.removed':
      return [changed(menuTopic, event.kitchenUid), changed(catalogTopic)];
    case 'order.placed':
      return [
        ...orderLists(event.kitchenUid, event.customerId),
        ...(event.countsPortions && event.kitchenUid ? [changed(menuTopic, event.kitchenUid)] : []),
      ];
    case 'order.accepted':
    case 'order.declined':
    case 'order.preparing':
    case 'order.dispatched':
    case 'order.delivered':
    case 'order.cancelled':
      return [
        ...orderLists(event.kitchenUid, event.customerId),
        // A declined or cancelled order's counted portions are there to order again.
        ...(event.portionsReturned && event.kitchenUid ? [changed(menuTopic, event.kitchenUid)] : []),
        // Its page counts the orders it delivered.
        ...(event.type === 'order.delivered' && event.kitchenUid
          ? [changed(kitchenTopic, event.kitchenUid)]
          : []),
      ];
    case 'order.awaiting-payment':
      // Its portions are held while it is paid for.
      return [
        ...orderLists(null, event.customerId),
        ...(event.countsPortions && event.kitchenUid ? [changed(menuTopic, event.kitchenUid)] : []),
      ];
    case 'order.status-set':
    case 'order.archived':
    case 'order.payment-changed':
    case 'order.refund-changed':
    case 'order.tip-changed':
    case 'order.problem-closed':
      return orderLists(event.kitchenUid, event.customerId);
    case 'order.problem-reported':
      // Both sides' orders show it; a food-safety complaint is on the operators' page too.
      return [
        ...orderLists(event.kitchenUid, event.customerId),
        ...(event.foodSafety ? [changed(moderationTopic)] : []),
      ];
    case 'order.message-sent':
      return []; // its conversation only (conversationOf)
    case 'allergies.saved':
      return []; // read by their next order and their own account page only
    case 'review.written':
      // The customer's order shows it was rated.
      return [...reviewShown(event.kitchenUid), ...orderLists(null, event.customerId)];
    case 'review.replied':
      // The list shows the reply; the kitchen's page hears of it through its `reviewsChangedAt`.
      return [changed(reviewsTopic, event.kitchenUid), changed(kitchenTopic, event.kitchenUid)];
    case 'review.hidden':
      return reviewShown(event.kitchenUid);
    case 'chat.posted':
      return [changed(chatTopic)];
    case 'chat.hidden':
      return [changed(chatTopic), changed(chatHiddenTopic)];
    case 'report.filed':
    case 'report.closed':
    case 'operator.acted':
      return [changed(moderationTopic)];
    case 'account.deleted':
      return [
        ...event.kitchensOrderedFrom.flatMap((uid) => orderLists(uid, null)),
        ...event.customersServed.flatMap((id) => orderLists(null, id)),
        ...(event.chatMessagesRemoved > 0 ? [changed(chatTopic), changed(chatHiddenTopic)] : []),
        // The kitchens they reviewed lose those reviews: their lists and averages change.
        ...event.kitchensReviewed.flatMap(reviewShown),
        ...(event.kitchenUid
          ? [
              ...kitchenShown(event.kitchenUid),
              changed(menuTopic, event.kitchenUid),
              ...orderLists(event.kitchenUid, null),
            ]
          : []),
        ...orderLists(null, event.userId),
      ];
    case 'session.ended':
      return [];
    case 'plan.changed':
    case 'plan.week-failed':
    case 'plan.reminder':
    case 'plan.card-needs-you':
      // Plans are not live lists: 'Your plans' and the cook's 'Plans' are read when opened.
      return [];
  }
}

/** A notice of `kind` about order `orderId` to `recipientId` (none when that side's account is gone). */
const orderNotice = (
  kind: NoticeKind,
  orderId: string,
  recipientId: string | null,
  step: string,
): Notice[] =>
  recipientId === null
    ? []
    : [{ key: `order:${orderId}:${step}:${recipientId}`, recipientId, kind, subjectId: orderId }];

/**
 * Who is told of an event, with the tab closed (email, push): the cook of a new order, of one nobody answered, of a
 * customer's cancellation, of a review and of reports about the kitchen; the customer of each step of their order
 * the kitchen (or the marketplace) made, and of a refund. Never the one who made the change.
 */
export function noticesOf(event: DomainEvent): Notice[] {
  switch (event.type) {
    case 'order.placed':
      // The kitchen sees the order from now on (a cash order at once, a card order once authorised).
      return orderNotice('order-new', event.orderId, event.kitchenUid, 'new');
    case 'order.accepted':
      return orderNotice('order-accepted', event.orderId, event.customerId, 'accepted');
    case 'order.dispatched':
      return orderNotice('order-dispatched', event.orderId, event.customerId, 'dispatched');
    case 'order.delivered':
      return orderNotice('order-delivered', event.orderId, event.customerId, 'delivered');
    case 'order.declined':
      return [
        ...orderNotice('order-declined', event.orderId, event.customerId, 'declined'),
        ...(event.by === 'system'
          ? orderNotice('order-unanswered', event.orderId, event.kitchenUid, 'unanswered')
          : []),
      ];
    case 'order.cancelled':
      if (event.by !== 'customer')
        return orderNotice('order-cancelled', event.orderId, event.customerId, 'cancelled');
      // Its kitchen hears of it only if it had seen it (not an order still awaiting its payment).
      return event.from === 'awaiting payment'
        ? []
        : orderNotice('order-cancelled-by-customer', event.orderId, event.kitchenUid, 'cancelled');
    case 'order.payment-changed':
      // The money taken (a card captured, cash collected): the customer's receipt, once.
      if (event.paymentState === 'captured' || event.paymentState === 'cash-paid')
        return orderNotice('order-receipt', event.orderId, event.customerId, 'receipt');
      return event.paymentState === 'refunded'
        ? orderNotice('order-refunded', event.orderId, event.customerId, 'refunded')
        : [];
    case 'order.refund-changed':
      // Each part given back (a dish, an amount, as store credit) is told once, by its own key: the email names it.
      // The whole payment refunded by such parts is not told again (src/server/notifications/render.ts).
      return event.state === 'refunded' && event.customerId !== null
        ? [
            {
              key: `order:${event.orderId}:refund:${event.refundId}:${event.customerId}`,
              recipientId: event.customerId,
              kind: 'order-refunded',
              subjectId: event.refundId,
            },
          ]
        : [];
    case 'order.problem-reported':
      // The cook hears of each report (its key is the report's: a second report after a refund is told too).
      return event.kitchenUid === null
        ? []
        : [
            {
              key: `order:${event.orderId}:problem:${event.reportId}:${event.kitchenUid}`,
              recipientId: event.kitchenUid,
              kind: 'order-problem',
              subjectId: event.orderId,
            },
          ];
    case 'review.written':
      return [
        {
          key: `review:${event.reviewId}:${event.kitchenUid}`,
          recipientId: event.kitchenUid,
          kind: 'review-new',
          subjectId: event.reviewId,
        },
      ];
    case 'report.filed':
      // One notice per report; the worker folds a kitchen's reports of the same hour into one digest.
      return event.kitchenUid === null
        ? []
        : [
            {
              key: `report:${event.reportId}:${event.kitchenUid}`,
              recipientId: event.kitchenUid,
              kind: 'reports',
              subjectId: event.kitchenUid,
            },
          ];
    case 'plan.reminder':
      // Once per plan and week (the key), however often the sweep finds it.
      return [
        {
          key: `plan-reminder:${event.planId}:${event.week}:${event.customerId}`,
          recipientId: event.customerId,
          kind: 'plan-week-reminder',
          subjectId: event.planId,
        },
      ];
    case 'plan.card-needs-you':
      // Once per plan and week (the key), however many runs find the card wanting.
      return [
        {
          key: `plan-card:${event.planId}:${event.week}:${event.customerId}`,
          recipientId: event.customerId,
          kind: 'plan-card-needs-you',
          subjectId: event.orderId,
        },
      ];
    case 'plan.week-failed':
      return [
        {
          key: `plan-week:${event.weekId}:failed:${event.customerId}`,
          recipientId: event.customerId,
          kind: 'plan-week-failed',
          subjectId: event.weekId,
        },
      ];
    case 'fees.change-announced':
      // One email to each cook, once (the key).
      return event.kitchenUids.map((uid) => ({
        key: `fee-change:${event.feeChangeId}:${uid}`,
        recipientId: uid,
        kind: 'fee-change' as const,
        subjectId: event.feeChangeId,
      }));
    case 'helper-card.due':
      // Once each: 30, 7 and 1 day before the card is due (the key decides however often the sweep finds it).
      return [
        {
          key: `helper-card:${event.helperId}:${event.daysBefore}:${event.kitchenUid}`,
          recipientId: event.kitchenUid,
          kind: 'helper-card-due',
          subjectId: event.helperId,
        },
      ];
    case 'document.expiring':
      // Once each: 30, 7 and 1 day before (the key decides however often the sweep finds it).
      return [
        {
          key: `document:${event.documentId}:${event.daysBefore}:${event.kitchenUid}`,
          recipientId: event.kitchenUid,
          kind: 'document-expiring',
          subjectId: event.documentId,
        },
      ];
    default:
      return [];
  }
}

/**
 * The one place that says what follows what happened: the change notices of the live lists an event changes (each
 * once per write), the end of a signed-out session's streams, and the notifications it enqueues (with a word to the
 * workers).
 */
export const reactions: Reactions = {
  noticesOf: (events) => events.flatMap(noticesOf),
  messagesOf(events) {
    const messages = new Map<string, BusMessage>();
    if (events.some((event) => noticesOf(event).length > 0))
      messages.set('notices', { type: 'notices-queued' });
    for (const event of events) {
      for (const topic of [...changesOf(event), ...conversationOf(event), ...slotsOf(event)])
        messages.set(`changed ${topic}`, { type: 'changed', topic });
      if (event.type === 'session.ended')
        messages.set(`session ${event.sessionHash}`, {
          type: 'session-ended',
          sessionHash: event.sessionHash,
        });
    }
    return [...messages.values()];
  },
};
