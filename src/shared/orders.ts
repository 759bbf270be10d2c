import { z } from 'zod';
import { ProblemReport } from './problem-reports.js';
import { OrderTip, tipAmount } from './tips.js';
import { AllergenAcknowledgement } from './allergen-declaration.js';
import { requiredText } from './fields.js';
import { CODE_PAYERS, CodeInput } from './code-input.js';
import { MenuItem } from './menu.js';
import { isEnded, MOVES_WITH_REASON, ORDER_MOVES, ORDER_STATES } from './order-states.js';
import { OrderReview } from './reviews.js';
import { OrderPayment, PAYMENT_METHODS } from './payments.js';
import { FULFILMENTS, OrderSlot, PickupPlace, orderNote } from './ordering.js';
import { msg, t, translator, type Translator } from './i18n/translator.js';

/** Spelt so, per the spec: the status of every new order. */
export const INITIAL_ORDER_STATUS = 'recieved';
export const MAX_ITEMS_PER_ORDER = 50;
/** An order's total may be at most $10,000.00: far above any home-cooked meal, far below the columns' range. */
export const MAX_ORDER_TOTAL_CENTS = 1_000_000;
/** The error code of a reused idempotency key with a different order (422, as payment APIs answer). */
/** The kitchen is closed or paused now (409). */
export const KITCHEN_CLOSED = 'KITCHEN_CLOSED';
/** A dish is sold out, or fewer portions are left than the cart asks for (409). */
export const SOLD_OUT = 'SOLD_OUT';
export const IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED';

export const OrderLine = z.object({ item: z.string(), priceCents: z.number().int() });
export type OrderLine = z.infer<typeof OrderLine>;

export const OrderStateSchema = z.enum(ORDER_STATES);

/** One step of an order's life: the state it entered, when, by whom, and why (declined or cancelled). */
export const OrderEvent = z.object({
  state: OrderStateSchema,
  at: z.string(),
  by: z.enum(['kitchen', 'customer']),
  reason: z.string().nullable(),
});
export type OrderEvent = z.infer<typeof OrderEvent>;

/** What both sides see of an order's life, beside the spec's free-text status. */
const Lifecycle = {
  /** The spec's status text: set to the state's name by each move, or to anything by the kitchen's Update. */
  status: z.string(),
  state: OrderStateSchema,
  /** When the kitchen expects it ready (set on 'Accept'). */
  readyAt: z.string().nullable(),
  /** Why it was declined or cancelled. */
  reason: z.string().nullable(),
  /** The kitchen took it off its list (the spec's Delete): kept for history, no longer in progress. */
  deleted: z.boolean(),
  events: z.array(OrderEvent),
  /** How it is paid and where its money stands. */
  payment: OrderPayment,
  /** Delivered to the address, or collected from the kitchen. */
  fulfilment: z.enum(FULFILMENTS),
  /** A pre-order's slot (null: 'As soon as possible'). */
  slot: OrderSlot.nullable(),
  /** 'A note for the cook' ('' when none). */
  note: z.string(),
  /** The latest problem its customer reported with it, open or answered. */
  problem: ProblemReport.nullable(),
  /** Until when its customer may report a problem, or tip (48 hours after delivery; null: not delivered). */
  problemReportUntil: z.string().nullable(),
  /** Tips given after delivery, each a card payment of its own, oldest first. */
  tips: z.array(OrderTip),
};

/** An order as its kitchen sees it on /KitchenOrders. */
export const KitchenOrder = z.object({
  id: z.string().uuid(),
  customerEmail: z.string(),
  customerAddress: z.string(),
  items: z.array(OrderLine),
  totalCents: z.number().int(),
  createdAt: z.string(),
  ...Lifecycle,
  /** The customer's allergies when they placed it ('Customer allergies: sesame, peanuts'), and those it holds. */
  customerAllergies: z.array(z.string()),
  allergensAcknowledged: z.array(z.string()),
});
export type KitchenOrder = z.infer<typeof KitchenOrder>;
export const KitchenOrderList = z.array(KitchenOrder);

/** A promotion code applied to an order: 'Code FIRST10: −$5.00', paid by the platform or the kitchen. */
export const OrderDiscount = z.object({
  code: z.string(),
  cents: z.number().int(),
  paidBy: z.enum(CODE_PAYERS),
});
export type OrderDiscount = z.infer<typeof OrderDiscount>;

/** A customer's own order, as /CustomerOrderStatus and 'Your orders' show it. */
export const CustomerOrder = z.object({
  id: z.string().uuid(),
  /** Null once the kitchen's cook deleted their account (the order stays in the customer's history). */
  kitchenUid: z.string().uuid().nullable(),
  kitchenName: z.string(),
  address: z.string(),
  items: z.array(OrderLine),
  itemsCents: z.number().int(),
  deliveryFeeCents: z.number().int(),
  feesAndTaxCents: z.number().int(),
  /** The tip chosen at checkout (in `totalCents`); tips given after delivery are `tips`. */
  tipCents: z.number().int(),
  totalCents: z.number().int(),
  /** The part of `totalCents` paid with store credit (the card is charged the rest): ADR 29. */
  creditCents: z.number().int(),
  /** A promotion code's discount, already taken off `totalCents`, and who pays it (ADR 30); null without one. */
  discount: OrderDiscount.nullable().optional(),
  createdAt: z.string(),
  ...Lifecycle,
  /** The customer's rating of it, once given ('Rate your order' once it is delivered). */
  review: OrderReview.nullable(),
  /** Where to collect a pickup order: given once the kitchen accepted it (null before, and for delivery). */
  pickup: PickupPlace.nullable(),
});
export type CustomerOrder = z.infer<typeof CustomerOrder>;
export const CustomerOrderList = z.array(CustomerOrder);

/** Whether an order still counts as in progress (at most one per customer). */
export const inProgress = (order: Pick<CustomerOrder, 'state' | 'deleted'>) =>
  !order.deleted && !isEnded(order.state);

/**
 * A move the kitchen makes on /KitchenOrders: 'Decline' and 'Cancel' need a reason; 'Accept' a ready time, but for a
 * pre-order (ready for its slot: the server checks).
 */
export const OrderMoveInput = z
  .object({
    move: z.enum(ORDER_MOVES, { error: () => t('Choose what to do with the order') }),
    readyInMinutes: z
      .number({ error: () => t('Ready time must be a number of minutes') })
      .int({ error: () => t('Ready time must be a number of minutes') })
      .min(5, { error: () => t('Ready time must be 5 minutes or more') })
      .max(24 * 60, { error: () => t('Ready time must be within a day') })
      .optional(),
    reason: requiredText(msg('Reason'), 200).optional(),
  })
  .superRefine((input, ctx) => {
    if (MOVES_WITH_REASON.includes(input.move) && input.reason === undefined)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: t('Reason is required') });
  });
export type OrderMoveInput = z.infer<typeof OrderMoveInput>;

/** The customer's 'Cancel order' (while the order is still recieved); a reason is optional. */
export const CustomerCancelInput = z.object({ reason: requiredText(msg('Reason'), 200).optional() });
export type CustomerCancelInput = z.infer<typeof CustomerCancelInput>;

/** 'Order again': the order's dishes still on the menu, at today's prices (one per line), and those gone. */
export const OrderAgain = z.object({
  kitchen: z.object({ uid: z.string().uuid(), name: z.string() }),
  items: z.array(MenuItem),
  gone: z.array(z.string()),
});
export type OrderAgain = z.infer<typeof OrderAgain>;

/**
 * What the browser sends to place an order: only ids and the address. Names, prices, fees and the total are
 * taken from the database by the server. The idempotency key makes a retried submit place one order.
 */
export const PlaceOrderInput = z
  .object({
    kitchenUid: z
      .string({ error: () => t('Kitchen is required') })
      .uuid({ error: () => t('Kitchen must be a kitchen id') }),
    itemIds: z
      .array(z.string().uuid({ error: () => t('Each item must be a menu item id') }), {
        error: () => t('Items are required'),
      })
      .min(1, { error: () => t('Your cart is empty') })
      .max(MAX_ITEMS_PER_ORDER, {
        error: () => t('At most {max} items per order', { max: String(MAX_ITEMS_PER_ORDER) }),
      }),
    /** Where to deliver: required for delivery, not sent for pickup. */
    address: requiredText(msg('Delivery address'), 300).optional(),
    /** 'delivery' (the default) or 'pickup'. */
    fulfilment: z
      .enum(FULFILMENTS, { error: () => t("Fulfilment must be 'delivery' or 'pickup'") })
      .optional(),
    /** A pre-order: the start (ISO 8601) of one of the kitchen's slots; left out: 'As soon as possible'. */
    slotStart: z
      .string({ error: () => t('Slot must be a time') })
      .max(40, { error: () => t('Slot must be a time') })
      .refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(Date.parse(value)), {
        error: () => t('Slot must be a time'),
      })
      .optional(),
    /** 'A note for the cook'. */
    note: orderNote().optional(),
    /**
     * The allergens the customer ticked 'I understand this order contains …' for: every allergen of their profile
     * that a dish of the order contains (or may contain, when that matters to them) must be here.
     */
    allergensAcknowledged: AllergenAcknowledgement.optional(),
    /** Where the address is, when it was picked from the suggestions (a typed address has no coordinates). */
    location: z
      .object(
        {
          lat: z
            .number({ error: () => t('Latitude must be a number') })
            .min(-90)
            .max(90),
          lon: z
            .number({ error: () => t('Longitude must be a number') })
            .min(-180)
            .max(180),
        },
        { error: () => t('Location must be {shape}', { shape: '{lat, lon}' }) },
      )
      .optional(),
    /**
     * A tip for the cook, in minor units, paid with the order by card (outside the platform's fee: the cook gets it
     * whole). Refused where the kitchen does not take tips, and with cash.
     */
    tipCents: tipAmount('tipCents').optional(),
    /** 'Pay by card' (the default where cards are taken) or 'Cash on delivery'. Amounts are never taken from here. */
    payment: z.enum(PAYMENT_METHODS, { error: () => t("Payment must be 'card' or 'cash'") }).optional(),
    /**
     * Pay with the customer's store credit first (ADR 29): the server takes as much of their balance as the order
     * needs; the card is charged the rest, and an order the credit covers needs no card. Card orders only.
     */
    useCredit: z.boolean({ error: () => t('Use store credit must be true or false') }).optional(),
    /** A promotion code (ADR 30), any case: the server checks it and takes its discount off the dishes. */
    code: CodeInput.optional(),
    idempotencyKey: z
      .string({ error: () => t('Idempotency key is required') })
      .regex(/^[A-Za-z0-9_-]{8,100}$/, {
        error: () => t('Idempotency key must be 8-100 letters, digits, - or _'),
      }),
  })
  .superRefine((input, ctx) => {
    if (input.fulfilment !== 'pickup' && input.address === undefined)
      ctx.addIssue({ code: 'custom', path: ['address'], message: t('Delivery address is required') });
  });
export type PlaceOrderInput = z.infer<typeof PlaceOrderInput>;

export const UpdateOrderStatusInput = z.object({ status: requiredText('Status', 60) });
export type UpdateOrderStatusInput = z.infer<typeof UpdateOrderStatusInput>;

export const OrderParams = z.object({ id: z.string().uuid({ error: () => t('Order id must be a uuid') }) });

/** An order's or a cart's lines, one per dish and price, in the order first added, each with how many. */
export function groupLines<T extends { item: string; priceCents: number }>(
  lines: readonly T[],
  keyOf: (line: T) => string = (line) => `${line.item}\u0000${line.priceCents}`,
): (T & { quantity: number })[] {
  const groups = new Map<string, T & { quantity: number }>();
  for (const line of lines) {
    const key = keyOf(line);
    const group = groups.get(key);
    if (group) group.quantity++;
    else groups.set(key, { ...line, quantity: 1 });
  }
  return [...groups.values()];
}

/** An order's dishes with counts, in the order first added: 'Dal × 2', 'Rice'. */
export function itemCounts(lines: readonly { item: string }[], tr: Translator = translator()): string[] {
  return groupLines(
    lines.map(({ item }) => ({ item, priceCents: 0 })),
    (line) => line.item,
  ).map(({ item, quantity }) => (quantity > 1 ? tr.t('{item} × {quantity}', { item, quantity }) : item));
}
