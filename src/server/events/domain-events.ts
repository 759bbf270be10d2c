import type { KitchenListing } from '../../shared/jurisdictions.js';
import type { OrderMove, OrderState } from '../../shared/order-states.js';
import type { PaymentStateName } from '../../shared/payments.js';

/**
 * What happened, as the service that made it happen records it (in the transaction of the change): the ids
 * whoever follows needs, and nothing else. One place decides what follows each (src/server/reactions.ts): which
 * live lists change now, and later which notifications and payment steps run. Services never say who must hear.
 */
export type DomainEvent =
  | { type: 'kitchen.registered'; kitchenUid: string }
  /** `zoneChanged`: a new time zone moves the kitchen's "today", and with it the portions left. */
  | { type: 'kitchen.updated'; kitchenUid: string; zoneChanged: boolean }
  | { type: 'kitchen.paused' | 'kitchen.resumed'; kitchenUid: string }
  /** Its ordering options changed: delivery or pickup, 'As soon as possible', slots, minimum order. */
  | { type: 'kitchen.ordering-changed'; kitchenUid: string }
  | { type: 'kitchen.suspended' | 'kitchen.reinstated'; kitchenUid: string }
  /** Listed, or not (yet), under its place's rules: by an operator's decision, or on a move to another place. */
  | { type: 'kitchen.listing-changed'; kitchenUid: string; listing: KitchenListing }
  /** The cook added a permit or certificate, or attached a photo or PDF to one already added (src/server/law/). */
  | { type: 'document.added' | 'document.file-attached'; kitchenUid: string; documentId: string }
  /** The cook added or removed a helper (src/server/law/). */
  | { type: 'helper.changed'; kitchenUid: string }
  /** A helper's food handler card is due in `daysBefore` days (30, 7 or 1) and not added: the cook is reminded. */
  | { type: 'helper-card.due'; kitchenUid: string; helperId: string; daysBefore: number }
  /** A document of a kitchen expires in `daysBefore` days (30, 7 or 1): its cook is reminded, once each. */
  | { type: 'document.expiring'; kitchenUid: string; documentId: string; daysBefore: number }
  | { type: 'dish.added' | 'dish.changed' | 'dish.removed'; kitchenUid: string; dishId: string }
  /** A customer saved 'Your allergies' (no list shows them: only their next order reads them). */
  | { type: 'allergies.saved'; userId: string }
  | OrderEvent
  /** The customer or the cook wrote in an order's conversation. */
  | (OrderRef & { type: 'order.message-sent' })
  | { type: 'review.written'; reviewId: string; kitchenUid: string; orderId: string; customerId: string }
  | { type: 'review.replied' | 'review.hidden'; reviewId: string; kitchenUid: string }
  | { type: 'chat.posted'; messageId: string }
  | { type: 'chat.hidden'; messageId: string }
  /** `kitchenUid`: the kitchen a report is about (a report of a kitchen), whose cook hears of it. */
  | { type: 'report.filed'; reportId: string; kitchenUid: string | null }
  | { type: 'report.closed'; reportId: string }
  /** An operator's action was recorded (hiding, suspending, closing the reports it resolved). */
  | { type: 'operator.acted'; action: string; targetId: string }
  /** A change of fees was scheduled: every cook is told by email (ADR 27). */
  | { type: 'fees.change-announced'; feeChangeId: string; kitchenUids: string[] }
  | {
      type: 'account.deleted';
      userId: string;
      /** Their kitchen, deleted with them. */
      kitchenUid: string | null;
      /** Kitchens whose order lists showed them as a customer. */
      kitchensOrderedFrom: string[];
      /** Customers whose order lists showed their kitchen. */
      customersServed: string[];
      /** Kitchens that lost a review of theirs. */
      kitchensReviewed: string[];
      chatMessagesRemoved: number;
    }
  | { type: 'session.ended'; sessionHash: string }
  /** A weekly plan was made, changed (a week skipped, paused, cancelled) or a kitchen's plan settings changed. */
  | { type: 'plan.changed'; planId: string | null; customerId: string | null; kitchenUid: string }
  /** A week of a plan could not be placed (`weekId`: its row): its customer is told why. */
  | { type: 'plan.week-failed'; planId: string; weekId: string; customerId: string; kitchenUid: string }
  /** A plan's week's cut-off comes within a day (`week`: its slot's local date): its customer is reminded. */
  | { type: 'plan.reminder'; planId: string; week: string; customerId: string; kitchenUid: string }
  /** A card plan's week's card needs its holder (authentication): the customer is asked to pay its order. */
  | {
      type: 'plan.card-needs-you';
      planId: string;
      week: string;
      orderId: string;
      customerId: string;
      kitchenUid: string;
    };

/** Everything of an order that whoever follows it needs to know whose lists it is on. */
interface OrderRef {
  orderId: string;
  /** Null once the kitchen's account was deleted. */
  kitchenUid: string | null;
  /** Null once the customer's account was deleted. */
  customerId: string | null;
}

export type OrderEvent =
  | (OrderRef & { type: 'order.placed'; countsPortions: boolean })
  /**
   * A move of the lifecycle (`order.accepted`, `order.cancelled`, …): from which state, by whom (`system`: the
   * marketplace, declining an order nobody answered or cancelling one whose payment failed); `portionsReturned`: a
   * cancel gave them back.
   */
  | (OrderRef & {
      type: `order.${OrderMoveEvent}`;
      from: OrderState;
      to: OrderState;
      by: 'kitchen' | 'customer' | 'system';
      portionsReturned: boolean;
    })
  /** A card order was created and its customer sent to pay: only the customer sees it until it is authorised. */
  | (OrderRef & { type: 'order.awaiting-payment'; countsPortions: boolean })
  /** Its money moved (captured, released, refunded, paid in cash): both sides' lists show where it stands. */
  | (OrderRef & { type: 'order.payment-changed'; paymentState: PaymentStateName })
  /** A part of its payment was asked back (`refunding`), given back (`refunded`), or refused by the provider. */
  | (OrderRef & {
      type: 'order.refund-changed';
      refundId: string;
      state: 'refunding' | 'refunded' | 'failed';
    })
  /** Its customer tipped the cook after delivery: a payment page opened (`paying`), paid, or closed unpaid. */
  | (OrderRef & { type: 'order.tip-changed'; tipId: string; state: 'paying' | 'paid' | 'expired' })
  /** Its cook or an operator closed its open problem report without a refund, saying why. */
  | (OrderRef & { type: 'order.problem-closed'; reportId: string })
  /** Its customer reported a problem with it (`foodSafety`: 'Made me ill', which also filed a complaint). */
  | (OrderRef & { type: 'order.problem-reported'; reportId: string; foodSafety: boolean })
  /** The cook typed a status of their own ('What is the status of the order?'). */
  | (OrderRef & { type: 'order.status-set' })
  /** The cook deleted it from their list. */
  | (OrderRef & { type: 'order.archived' });

/** The lifecycle's moves as events say them: `order.accepted` for 'accept', and so on. */
export const MOVE_EVENTS = {
  accept: 'accepted',
  decline: 'declined',
  prepare: 'preparing',
  dispatch: 'dispatched',
  deliver: 'delivered',
  cancel: 'cancelled',
} as const satisfies { [move in OrderMove]: string };
export type OrderMoveEvent = (typeof MOVE_EVENTS)[OrderMove];

/** Records an event in the transaction at hand (see `mutate`). */
export type RecordEvent = (event: DomainEvent) => void;
