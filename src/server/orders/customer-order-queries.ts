import type { KitchenListing, PlaceParts } from '../../shared/jurisdictions.js';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { OrderTotals } from '../../shared/money.js';
import type { KitchenClock } from '../../shared/opening-hours.js';
import type { CustomerOrder } from '../../shared/orders.js';
import type { OrderPayment } from '../../shared/payments.js';
import type { DbOrTx } from '../db/database.js';
import { executePrepared } from '../db/prepared.js';
import { kitchens, menuItems, orderEvents, orderItems, orders } from '../db/schema.js';
import { findCustomerOrder } from '../data/order-queries.js';
import { orderingColumns, toOrdering } from '../data/ordering-queries.js';
import type { Fulfilment, OrderingSettings } from '../../shared/ordering.js';

/** The order a customer placed with this idempotency key, if any (open or not), and what it was asked with. */
export async function findOrderByKey(
  db: DbOrTx,
  customerId: string,
  idempotencyKey: string,
): Promise<{ order: CustomerOrder; requestHash: string | null } | undefined> {
  const [row] = await db
    .select({ id: orders.id, requestHash: orders.requestHash })
    .from(orders)
    .where(and(eq(orders.customerId, customerId), eq(orders.idempotencyKey, idempotencyKey)))
    .limit(1);
  const order = row && (await findCustomerOrder(db, customerId, row.id));
  return order && { order, requestHash: row.requestHash };
}

/** What placing an order needs to know of the kitchen. */
export interface OrderableKitchen extends KitchenClock {
  uid: string;
  name: string;
  /** Suspended by an operator: takes no order. */
  suspended: boolean;
  /** Whether its place's rules let it take orders yet (only 'listed' does). */
  listing: KitchenListing;
  location: { lat: number; lon: number } | null;
  deliveryRadiusKm: number;
  /** Its account at the payment provider, when its payouts are on (it takes cards then). */
  payoutAccount: string | null;
  acceptsCash: boolean;
  /** 'Accept tips'. */
  acceptsTips: boolean;
  /** How it takes orders: delivery or pickup, now or in slots, its minimum (src/shared/ordering.ts). */
  ordering: OrderingSettings;
  /** Where it is, as the geocoder named it: picks its rules (caps) from the jurisdiction profiles. */
  place: PlaceParts;
}

/**
 * The kitchen of `kitchenUid` and those of the named menu items that are its own (other kitchens' or unknown ids
 * are simply absent), in one round trip; undefined when there is no such kitchen. Nothing is locked: a dish deleted
 * before the order commits breaks the order's foreign key, which the caller answers as "no longer on the menu".
 */
export async function findKitchenAndItems(db: DbOrTx, kitchenUid: string, ids: readonly string[]) {
  const rows = await db
    .select({
      name: kitchens.name,
      latitude: kitchens.latitude,
      longitude: kitchens.longitude,
      deliveryRadiusKm: kitchens.deliveryRadiusKm,
      timeZone: kitchens.timeZone,
      hours: kitchens.openingHours,
      pausedAt: kitchens.pausedAt,
      pausedUntil: kitchens.pausedUntil,
      suspendedAt: kitchens.suspendedAt,
      listing: kitchens.listing,
      payoutAccountId: kitchens.payoutAccountId,
      payoutState: kitchens.payoutState,
      acceptsCash: kitchens.acceptsCash,
      acceptsTips: kitchens.acceptsTips,
      countryCode: kitchens.countryCode,
      region: kitchens.region,
      county: kitchens.county,
      ...orderingColumns,
      itemId: menuItems.id,
      item: menuItems.item,
      priceCents: menuItems.priceCents,
      soldOut: menuItems.soldOut,
      portionsPerDay: menuItems.portionsPerDay,
      contains: menuItems.allergens,
      mayContain: menuItems.mayContain,
    })
    .from(kitchens)
    .leftJoin(
      menuItems,
      and(eq(menuItems.kitchenId, kitchens.ownerId), inArray(menuItems.id, [...new Set(ids)])),
    )
    .where(eq(kitchens.ownerId, kitchenUid))
    .prepare(`order_kitchen_items_${new Set(ids).size}`) // one text per number of dishes
    .execute();
  const [first] = rows;
  if (!first) return undefined;
  const kitchen: OrderableKitchen = {
    uid: kitchenUid,
    name: first.name,
    suspended: first.suspendedAt !== null,
    listing: first.listing,
    location:
      first.latitude === null || first.longitude === null
        ? null
        : { lat: first.latitude, lon: first.longitude },
    deliveryRadiusKm: first.deliveryRadiusKm,
    timeZone: first.timeZone,
    hours: first.hours,
    pausedAt: first.pausedAt?.toISOString() ?? null,
    pausedUntil: first.pausedUntil?.toISOString() ?? null,
    payoutAccount: first.payoutState === 'payouts-on' ? first.payoutAccountId : null,
    acceptsCash: first.acceptsCash,
    acceptsTips: first.acceptsTips,
    ordering: toOrdering(first),
    place: { countryCode: first.countryCode, region: first.region, county: first.county },
  };
  const items = rows.flatMap((r) =>
    r.itemId === null || r.item === null || r.priceCents === null
      ? []
      : [
          {
            id: r.itemId,
            item: r.item,
            priceCents: r.priceCents,
            soldOut: r.soldOut === true,
            portionsPerDay: r.portionsPerDay,
            contains: r.contains ?? [],
            mayContain: r.mayContain ?? [],
          },
        ],
  );
  return { kitchen, items };
}

export interface NewOrder {
  /** Chosen before it is written, so that what follows it can name it (a retry's order keeps its own). */
  id: string;
  /** When it is placed: a pause in force then refuses it. */
  at: Date;
  kitchenUid: string;
  kitchenName: string;
  customerId: string;
  customerEmail: string;
  /** Where to deliver ('' for pickup). */
  address: string;
  fulfilment: Fulfilment;
  /** A pre-order's slot, and until when its kitchen may answer it (null: 'As soon as possible'). */
  slot: { start: Date; end: Date; answerBy: Date } | null;
  note: string;
  /** The customer's allergies as they placed it (their profile's), and those they acknowledged the order holds. */
  customerAllergies: string[];
  allergensAcknowledged: string[];
  idempotencyKey: string;
  requestHash: string;
  /** The kitchen's day whose portions the order took (null: none counted). */
  portionsDay: string | null;
  /** The kitchen's day whose meal caps the order counts against, and its meals (null, 0: its rules cap nothing). */
  capsDay: string | null;
  capsMeals: number;
  totals: OrderTotals;
  /** A card order awaits its payment (the kitchen sees it once authorised); a cash order goes to the kitchen. */
  payment: OrderPayment['method'];
  platformFeeCents: number;
  /** The tip chosen at checkout (in `totals.totalCents`). */
  tipCents: number;
  /** Paid with store credit (taken from the account in the same transaction); all of it: no card payment. */
  creditCents: number;
  /** A promotion code's discount (in `totals.totalCents` already), taken in the same transaction (ADR 30). */
  discount: { code: string; cents: number; paidBy: 'platform' | 'kitchen' } | null;
  currency: string;
  /** A line's dish (null: none, as for a dish deleted since). */
  lines: { menuItemId: string | null; item: string; priceCents: number }[];
}

/**
 * Inserts an order (state `recieved`), its lines (in cart order) and its first event, and selects `sending` (the
 * change notices) — all in one statement, atomic by itself: the order route's cost is mostly its round trips.
 * Undefined (nothing inserted) when the kitchen is suspended, paused or gone by then (`whyNotServing` tells which):
 * the statement holds the kitchen's row (`for share`), so a suspension, a pause or a deletion either waits for this
 * order, which was placed first, or this order waits for it and sees it. Unique and foreign-key violations propagate.
 */
export async function insertOrder(
  db: DbOrTx,
  order: NewOrder,
  sending: SQL,
): Promise<CustomerOrder | undefined> {
  const { totals, lines } = order;
  // An order its store credit pays whole has no card payment to wait for: it reaches its kitchen at once, its money
  // held as an authorised card payment is (ADR 29).
  const byCredit = order.payment === 'card' && order.creditCents === order.totals.totalCents;
  const state = order.payment === 'card' && !byCredit ? 'awaiting payment' : 'recieved';
  const paymentState = byCredit ? 'authorised' : order.payment === 'card' ? 'awaiting-payment' : 'cash-due';
  const [row] = await executePrepared<{ id: string; created_at: Date | string }>(
    db,
    sql`
    with serving as (
      select ${kitchens.ownerId} from ${kitchens}
      where ${kitchens.ownerId} = ${order.kitchenUid} and ${kitchens.suspendedAt} is null
        and ${kitchens.listing} = 'listed'
        and (${kitchens.pausedAt} is null
          or (${kitchens.pausedUntil} is not null and ${kitchens.pausedUntil} <= ${order.at.toISOString()}::timestamptz))
      for share
    ), placed as (
      insert into ${orders} (id, kitchen_id, kitchen_name, customer_id, customer_email, address, idempotency_key,
        request_hash, portions_day, caps_day, caps_meals, items_cents, delivery_fee_cents, fees_and_tax_cents, tip_cents, credit_cents, discount_cents, discount_code, discount_paid_by, total_cents, state, status,
        payment_method, payment_state, platform_fee_cents, currency, fulfilment, slot_start, slot_end, answer_by, note,
        customer_allergies, allergens_acknowledged, authorised_at)
      select ${order.id}::uuid, ${order.kitchenUid}, ${order.kitchenName}, ${order.customerId}, ${order.customerEmail},
        ${order.address}, ${order.idempotencyKey}, ${order.requestHash}, ${order.portionsDay}::date,
        ${order.capsDay}::date, ${order.capsMeals}::int, ${totals.itemsCents},
        ${totals.deliveryFeeCents}, ${totals.feesAndTaxCents}, ${order.tipCents}, ${order.creditCents},
        ${order.discount?.cents ?? 0}::int, ${order.discount?.code ?? null}, ${order.discount?.paidBy ?? null},
        ${totals.totalCents}, ${state}, ${state},
        ${order.payment}, ${paymentState}, ${order.platformFeeCents}, ${order.currency}, ${order.fulfilment},
        ${order.slot?.start.toISOString() ?? null}::timestamptz, ${order.slot?.end.toISOString() ?? null}::timestamptz,
        ${order.slot?.answerBy.toISOString() ?? null}::timestamptz, ${order.note},
        ${sql.param(order.customerAllergies)}::text[], ${sql.param(order.allergensAcknowledged)}::text[],
        ${byCredit ? order.at.toISOString() : null}::timestamptz
      from serving
      returning id, state, customer_id, created_at
    ), lines as (
      insert into ${orderItems} (order_id, position, menu_item_id, item, price_cents, contains, may_contain,
        allergens_declared, ingredients, keeps_days, reheating)
      select placed.id, line.position - 1, line.menu_item_id, line.item, line.price_cents, dish.allergens,
        dish.may_contain, dish.allergens_declared_at is not null, dish.ingredients, dish.keeps_days, dish.reheating
      -- What the dish declares as the order is placed stays with the order (a later change does not reach it).
      from placed cross join unnest(
        ${sql.param(lines.map((l) => l.menuItemId))}::uuid[],
        ${sql.param(lines.map((l) => l.item))}::text[],
        ${sql.param(lines.map((l) => l.priceCents))}::integer[]
      ) with ordinality as line(menu_item_id, item, price_cents, position)
      left join ${menuItems} dish on dish.id = line.menu_item_id
    ), first_event as (
      insert into ${orderEvents} (order_id, state, by_role, by_user_id, created_at)
      select id, state, 'customer', customer_id, created_at from placed
    )
    select id, created_at, ${sending} from placed`,
  );
  if (!row) return undefined;
  const at = new Date(row.created_at).toISOString();
  return {
    id: row.id,
    kitchenUid: order.kitchenUid,
    kitchenName: order.kitchenName,
    address: order.address,
    items: lines.map(({ item, priceCents }) => ({ item, priceCents })),
    ...totals,
    tipCents: order.tipCents,
    creditCents: order.creditCents,
    ...(order.discount ? { discount: order.discount } : {}),
    createdAt: at,
    status: state,
    state,
    readyAt: null,
    reason: null,
    deleted: false,
    events: [{ state, at, by: 'customer', reason: null }],
    payment: { method: order.payment, state: paymentState, checkoutUrl: null, refunds: [], dispute: null },
    fulfilment: order.fulfilment,
    slot: order.slot && { start: order.slot.start.toISOString(), end: order.slot.end.toISOString() },
    note: order.note,
    problem: null,
    problemReportUntil: null,
    tips: [],
    review: null,
    pickup: null,
  };
}

/**
 * Why an order's insert found no kitchen to serve it: gone, suspended by an operator (or no longer listed under its
 * place's rules), or paused by its cook.
 */
export async function whyNotServing(
  db: DbOrTx,
  kitchenUid: string,
): Promise<'gone' | 'suspended' | 'paused'> {
  const [row] = await db
    .select({ suspendedAt: kitchens.suspendedAt, listing: kitchens.listing })
    .from(kitchens)
    .where(eq(kitchens.ownerId, kitchenUid))
    .limit(1);
  if (!row) return 'gone';
  return row.suspendedAt || row.listing !== 'listed' ? 'suspended' : 'paused';
}

/** Whether the kitchen is still there. */
export async function kitchenExists(db: DbOrTx, kitchenUid: string): Promise<boolean> {
  return (await whyNotServing(db, kitchenUid)) !== 'gone';
}
