import { createHash, randomUUID } from 'node:crypto';
import { commissionOn, utcDay } from '../data/fee-changes.js';
import { kitchenProfile } from '../data/rule-overrides.js';
import type { FastifyInstance } from 'fastify';
import { computeTotals, formatCents, formatMoney, type OrderTotals } from '../../shared/money.js';
import { availability, formatOpening, isPaused, localTime } from '../../shared/opening-hours.js';
import {
  BELOW_MINIMUM,
  FULFILMENT_REFUSED,
  SLOT_FULL,
  SLOT_UNAVAILABLE,
  type Fulfilment,
  type Slot,
} from '../../shared/ordering.js';
import { answerBy, findSlot } from '../../shared/slots.js';
import { takeSlot } from './slot-bookings.js';
import {
  IDEMPOTENCY_KEY_REUSED,
  KITCHEN_CLOSED,
  SOLD_OUT,
  MAX_ORDER_TOTAL_CENTS,
  type CustomerOrder,
  type PlaceOrderInput,
} from '../../shared/orders.js';
import type { DbOrTx } from '../db/database.js';
import { foreignKeyViolation, uniqueViolation } from '../lib/unique-violation.js';
import { badRequest, conflict, HttpError } from '../lib/errors.js';
import { msg, translator, type Translator } from '../../shared/i18n/translator.js';
import { mutateInOneStatement } from '../events/mutate.js';
import { recordOrderFigures } from '../data/order-figures.js';
import { refuseOutsideDeliveryArea } from './delivery-area.js';
import {
  findKitchenAndItems,
  findOrderByKey,
  insertOrder,
  kitchenExists,
  whyNotServing,
  type NewOrder,
  type OrderableKitchen,
} from './customer-order-queries.js';
import { takePortions, type PortionClaim } from './portions.js';
import { creditBalance, moveCredit, spentEntry } from '../payments/credit.js';
import { needsCheckout, platformFeeOf, startCheckout } from './checkout.js';
import { TIPS_REFUSED } from '../../shared/tips.js';
import { CODE_REFUSED } from '../../shared/promo-codes.js';
import { checkCode, takeCode, type CodeApplied } from '../payments/promo-codes.js';
import { CREDIT_TOO_LOW } from '../../shared/credit.js';
import { PAYMENT_METHOD_REFUSED, type PaymentMethod } from '../../shared/payments.js';
import { KITCHEN_SUSPENDED } from '../../shared/moderation.js';
import {
  capsInCurrency,
  hasCaps,
  MEAL_CAP_REACHED,
  mealsOf,
  SELLING_NOT_ALLOWED,
  type Profile,
} from '../../shared/jurisdictions.js';
import { takeMeals, type CapRefusal } from './meal-caps.js';
import { ALLERGENS_NOT_ACKNOWLEDGED } from '../../shared/allergen-declaration.js';
import { allergenName, cartConflicts, type Allergen } from '../../shared/allergen-set.js';
import { findAllergyProfile } from '../data/allergy-profile-queries.js';
import { helperCardRule, papersPause, requiredDocuments } from '../data/kitchen-documents.js';
import {
  DOCUMENT_LABELS,
  DOCUMENTS_NOT_IN_FORCE,
  type DocumentPause,
} from '../../shared/kitchen-documents.js';

export interface Customer {
  id: string;
  email: string;
}

const kitchenGone = () => badRequest('This kitchen does not exist', 'kitchenUid');
const alreadyOpen = () =>
  conflict('You already have an order in progress. You can order again once the kitchen has finished it.');
/** 409 naming `slotStart`: a pre-order of this customer at this kitchen holds that slot already (ADR 31). */
const slotAlreadyOrdered = () =>
  conflict(
    'You already have an order from this kitchen for this time. Please choose another time.',
    'slotStart',
  );
const itemGone = () =>
  conflict('An item in your cart is no longer on the menu. Please remove it and order again.', 'itemIds');
const keyReused = () =>
  new HttpError(
    422,
    IDEMPOTENCY_KEY_REUSED,
    msg('This order key was already used for a different order. Please submit the order again.'),
    'idempotencyKey',
  );

/** 409: its cook has paused new orders. */
const pausedRefusal = (kitchen: OrderableKitchen) =>
  new HttpError(409, KITCHEN_CLOSED, msg('{name} is not taking orders right now.'), 'kitchenUid', undefined, {
    name: kitchen.name,
  });

/** 409 naming why a kitchen takes no order now (paused, or closed until its next opening), or undefined. */
function closedRefusal(kitchen: OrderableKitchen, now: Date, tr: Translator): HttpError | undefined {
  const state = availability(kitchen, now, tr);
  if (state.open) return undefined;
  if (state.paused) return pausedRefusal(kitchen);
  const { name } = kitchen;
  return state.opensAt
    ? new HttpError(
        409,
        KITCHEN_CLOSED,
        msg('{name} is closed now. It opens {when}.'),
        'kitchenUid',
        undefined,
        {
          name,
          when: formatOpening(new Date(state.opensAt), kitchen.timeZone, tr),
        },
      )
    : new HttpError(409, KITCHEN_CLOSED, msg('{name} is closed.'), 'kitchenUid', undefined, { name });
}

/** 409 naming each dish there is not enough of, and how many are left. */
function soldOutRefusal(
  short: readonly { item: string; left: number; asked: number }[],
  tr: Translator,
): HttpError {
  const parts = short.map(({ item, left, asked }) =>
    left === 0
      ? tr.t('{item} is sold out', { item })
      : // translators: one of several problems joined with '; ', the first one capitalised
        tr.t('only {left} {item} left (you asked for {asked})', { item, left, asked }),
  );
  const text = parts.join(tr.t('; '));
  return new HttpError(
    409,
    SOLD_OUT,
    msg('{problems}. Please change your cart and order again.'),
    'itemIds',
    undefined,
    { problems: `${text.charAt(0).toUpperCase()}${text.slice(1)}` },
  );
}

/** 409 naming the cap an order would pass (meals a day, a week, gross a year) and what is left of it. */
function capRefusal(refusal: CapRefusal, kitchen: OrderableKitchen, tr: Translator): HttpError {
  const values = { name: kitchen.name, limit: refusal.limit, left: refusal.left };
  const message =
    refusal.cap === 'day'
      ? msg(
          'Daily meal cap reached: {name} may sell {limit} meals a day under the rules here, and has {left} left today.',
        )
      : refusal.cap === 'week'
        ? msg(
            'Weekly meal cap reached: {name} may sell {limit} meals a week under the rules here, and has {left} left this week.',
          )
        : msg(
            'Yearly sales cap reached: {name} may sell {limit} a year under the rules here, and has {left} left this year.',
          );
  return new HttpError(
    409,
    MEAL_CAP_REACHED,
    message,
    'itemIds',
    undefined,
    refusal.cap === 'year'
      ? {
          ...values,
          limit: formatMoney(refusal.limit, refusal.currency, tr),
          left: formatMoney(refusal.left, refusal.currency, tr),
        }
      : values,
  );
}

/** 409: the rules of the kitchen's place let no home kitchen sell there. */
const sellingRefused = (kitchen: OrderableKitchen, profile: Profile) =>
  new HttpError(
    409,
    SELLING_NOT_ALLOWED,
    msg('{name} cannot take orders: home kitchens may not sell meals in {place} under its rules.'),
    'kitchenUid',
    undefined,
    { name: kitchen.name, place: profile.name },
  );

/**
 * 409 naming `allergensAcknowledged` when the order holds allergens of the customer's profile that they have not
 * acknowledged ('I understand this order contains sesame'), naming them.
 */
function refuseUnacknowledged(
  conflicts: readonly Allergen[],
  acknowledged: readonly string[],
  tr: Translator,
) {
  const missing = conflicts.filter((a) => !acknowledged.includes(a));
  if (missing.length)
    throw new HttpError(
      409,
      ALLERGENS_NOT_ACKNOWLEDGED,
      msg(
        'This order contains {allergens}, which you listed in your allergies. Tick that you understand and order again.',
      ),
      'allergensAcknowledged',
      undefined,
      { allergens: missing.map((a) => allergenName(a, tr.locale)).join(', ') },
    );
}

/**
 * 409: a document the kitchen's rules require (its permit, its food safety certificate) is missing or expired, or a
 * helper's food handler card past the day it was due.
 */
function documentsRefusal(kitchen: OrderableKitchen, pause: DocumentPause, tr: Translator): HttpError {
  const values = {
    name: kitchen.name,
    document: tr.t(DOCUMENT_LABELS[pause.kind]).toLowerCase(),
    date: pause.expiredOn === null ? '' : tr.date(new Date(`${pause.expiredOn}T12:00:00Z`), 'date'),
  };
  return new HttpError(
    409,
    DOCUMENTS_NOT_IN_FORCE,
    // A helper's card: the customer is not told whose.
    pause.holder !== undefined
      ? msg('{name} cannot take orders until a helper’s food handler card is added.')
      : pause.expiredOn === null
        ? msg('{name} cannot take orders until its {document} is added.')
        : msg('{name} is not taking orders: its {document} expired on {date}.'),
    'kitchenUid',
    undefined,
    values,
  );
}

/** The dishes of the cart whose portions are counted, each with how many the cart asks for. */
function portionClaims(
  lines: readonly { id: string; item: string; portionsPerDay: number | null }[],
): PortionClaim[] {
  const claims = new Map<string, PortionClaim>();
  for (const line of lines) {
    if (line.portionsPerDay === null) continue;
    const claim = claims.get(line.id);
    if (claim) claim.count++;
    else claims.set(line.id, { menuItemId: line.id, item: line.item, count: 1, perDay: line.portionsPerDay });
  }
  return [...claims.values()];
}

/** What a submit asks for, so that a retry with the same key can be told from a different order. */
const requestHashOf = ({
  kitchenUid,
  itemIds,
  address,
  payment,
  fulfilment,
  slotStart,
  note,
  tipCents,
  useCredit,
  code,
}: PlaceOrderInput) =>
  createHash('sha256')
    .update(
      JSON.stringify([
        kitchenUid,
        itemIds,
        address ?? null,
        payment ?? null,
        // Left out of the hash when not asked, so that a key's hash stays what it was before they existed.
        ...(fulfilment === undefined && slotStart === undefined && note === undefined
          ? []
          : [fulfilment ?? null, slotStart === undefined ? null : Date.parse(slotStart), note ?? null]),
        ...(tipCents ? [{ tipCents }] : []),
        ...(useCredit ? [{ useCredit }] : []),
        ...(code ? [{ code }] : []),
      ]),
    )
    .digest('base64url');

/** 409 naming `fulfilment` when the kitchen does not offer the one asked for. */
function refuseFulfilment(kitchen: OrderableKitchen, fulfilment: Fulfilment): void {
  const { offersDelivery, offersPickup } = kitchen.ordering;
  const values = { name: kitchen.name };
  if (fulfilment === 'delivery' && !offersDelivery)
    throw new HttpError(
      409,
      FULFILMENT_REFUSED,
      msg('{name} does not deliver. Please choose Pickup.'),
      'fulfilment',
      undefined,
      values,
    );
  if (fulfilment === 'pickup' && !offersPickup)
    throw new HttpError(
      409,
      FULFILMENT_REFUSED,
      msg('{name} does not offer pickup. Please choose Delivery.'),
      'fulfilment',
      undefined,
      values,
    );
}

/** 409: the dishes total less than the kitchen's minimum order amount, saying how much more to add. */
function refuseBelowMinimum(kitchen: OrderableKitchen, totals: OrderTotals, tr: Translator): void {
  const short = kitchen.ordering.minimumOrderCents - totals.itemsCents;
  if (short > 0)
    throw new HttpError(
      409,
      BELOW_MINIMUM,
      msg('Add {amount} more to order from this kitchen'),
      'itemIds',
      undefined,
      { amount: formatCents(short, tr) },
    );
}

const slotRefusal = (message: string, name?: string) =>
  new HttpError(
    409,
    SLOT_UNAVAILABLE,
    message,
    'slotStart',
    undefined,
    name === undefined ? undefined : { name },
  );
const slotFull = () =>
  new HttpError(
    409,
    SLOT_FULL,
    msg('This time is fully booked now. Please choose another time.'),
    'slotStart',
  );

/**
 * The slot a pre-order asks for, if one of the kitchen's slots that can be chosen now (409 naming `slotStart` if
 * not); null for 'As soon as possible', refused (409) by a kitchen that takes orders for later only.
 */
function chosenSlot(kitchen: OrderableKitchen, now: Date, slotStart: string | undefined): Slot | null {
  if (slotStart === undefined) {
    if (!kitchen.ordering.takesAsap)
      throw slotRefusal(msg('{name} takes orders for later only. Please choose a time.'), kitchen.name);
    return null;
  }
  if (kitchen.ordering.slotMinutes === null)
    throw slotRefusal(msg('{name} does not take orders for later.'), kitchen.name);
  const slot = findSlot(kitchen, now, slotStart);
  if (!slot) throw slotRefusal(msg('This time can no longer be chosen. Please choose another time.'));
  return slot;
}

/**
 * How this order is paid: what the customer chose, card by default where cards are taken; cash on delivery only
 * where the marketplace takes no cards (`PAYMENTS=off`). 409 naming `payment` when the kitchen does not take it.
 */
export function paymentMethodOf(
  app: Pick<FastifyInstance, 'payments'>,
  kitchen: Pick<OrderableKitchen, 'name' | 'payoutAccount' | 'acceptsCash'>,
  asked: PaymentMethod | undefined,
): PaymentMethod {
  const refuse = (message: string) =>
    new HttpError(409, PAYMENT_METHOD_REFUSED, message, 'payment', undefined, { name: kitchen.name });
  if (!app.payments.provider) {
    if (asked === 'card')
      throw refuse(msg('Card payments are not available here. Please choose Cash on delivery.'));
    return 'cash';
  }
  const method = asked ?? (kitchen.payoutAccount === null && kitchen.acceptsCash ? 'cash' : 'card');
  if (method === 'card' && kitchen.payoutAccount === null)
    throw refuse(
      kitchen.acceptsCash
        ? msg('{name} cannot take card payments yet. Please choose Cash on delivery.')
        : msg('{name} cannot take payments yet.'),
    );
  if (method === 'cash' && !kitchen.acceptsCash)
    throw refuse(msg('{name} does not take cash on delivery. Please choose Pay by card.'));
  return method;
}

/**
 * Places a customer's order from ids only: names and prices come from the database, the fees and total are
 * computed here. Idempotent per (customer, idempotencyKey): a retry returns the order the first call made
 * (`created: false`), even when both run at once (the unique index decides, and the loser re-reads); the same key
 * with a different cart or address is refused (422).
 */
export async function placeOrder(
  app: Pick<
    FastifyInstance,
    'db' | 'bus' | 'reactions' | 'clock' | 'payments' | 'config' | 'log' | 'jurisdictions'
  >,
  customer: Customer,
  input: PlaceOrderInput,
  /** The customer's language, for the values of refusals (a day and time, an amount). */
  tr: Translator = translator(),
  /** A plan's week paid with its saved card (off-session): no payment page is opened, the caller charges it. */
  { offSession = false }: { offSession?: boolean } = {},
): Promise<{ order: CustomerOrder; created: boolean }> {
  const requestHash = requestHashOf(input);
  const menu = await findKitchenAndItems(app.db, input.kitchenUid, input.itemIds);
  if (!menu) throw kitchenGone();
  const { kitchen } = menu;
  const fulfilment = input.fulfilment ?? 'delivery';
  if (fulfilment === 'delivery') refuseOutsideDeliveryArea(kitchen, input.location, tr);
  const found = new Map(menu.items.map((item) => [item.id, item]));
  const lines = input.itemIds.map((id) => found.get(id));
  if (lines.some((line) => !line))
    throw badRequest("Some items are not on this kitchen's menu (any more)", 'itemIds');
  const priced = lines.filter((line) => line !== undefined);
  const tipCents = input.tipCents ?? 0;
  const dishTotals = computeTotals(
    priced.map((line) => line.priceCents),
    fulfilment,
  );
  // A tip is in what the customer pays, outside the platform's fee (ADR 25).
  const totals = { ...dishTotals, totalCents: dishTotals.totalCents + tipCents };
  if (totals.totalCents > MAX_ORDER_TOTAL_CENTS)
    throw badRequest('An order may total at most {amount}', 'itemIds', {
      amount: formatCents(MAX_ORDER_TOTAL_CENTS, tr),
    });

  const now = new Date(app.clock.now());
  // A retry of an order placed before the kitchen closed (or its dish sold out) answers that order.
  const refuse = async (refusal: HttpError) => {
    const earlier = await findOrderByKey(app.db, customer.id, input.idempotencyKey);
    if (earlier && earlier.requestHash === requestHash)
      return {
        order:
          needsCheckout(earlier.order) && !offSession
            ? await startCheckout(app, earlier.order, { repeat: true })
            : earlier.order,
        created: false,
      };
    throw refusal;
  };
  const suspended = () =>
    new HttpError(409, KITCHEN_SUSPENDED, msg('{name} is unavailable right now.'), 'kitchenUid', undefined, {
      name: kitchen.name,
    });
  if (kitchen.suspended) return refuse(suspended());
  // Its place's rules with the operators' overrides in force (ADR 27).
  const { profile } = await kitchenProfile(
    app.db,
    app.jurisdictions,
    app.payments.config.currency,
    kitchen.uid,
    kitchen.place,
  );
  if (!profile.rules.sellingAllowed || kitchen.listing === 'not-allowed')
    return refuse(sellingRefused(kitchen, profile));
  // Its place's rules ask an operator to approve its permit before it sells.
  if (kitchen.listing !== 'listed') return refuse(suspended());
  let slot: Slot | null;
  try {
    refuseFulfilment(kitchen, fulfilment);
    refuseBelowMinimum(kitchen, totals, tr);
    slot = chosenSlot(kitchen, now, input.slotStart);
  } catch (error) {
    return refuse(error as HttpError);
  }
  // A pre-order may be placed while the kitchen is closed (for a slot in its hours), not while it is paused.
  const closed =
    slot === null
      ? closedRefusal(kitchen, now, tr)
      : isPaused(kitchen, now)
        ? pausedRefusal(kitchen)
        : undefined;
  if (closed) return refuse(closed);
  // The papers its rules require (its own, its helpers' cards once due) must be valid on the day the food is for.
  if (requiredDocuments(profile.rules).length || helperCardRule(profile.rules)) {
    const day = slot?.date ?? localTime(now, kitchen.timeZone).date;
    const pause = await papersPause(app.db, kitchen.uid, profile.rules, day);
    if (pause) return refuse(documentsRefusal(kitchen, pause, tr));
  }
  const soldOut = [...new Set(priced.filter((line) => line.soldOut).map((line) => line.item))];
  if (soldOut.length)
    return refuse(
      soldOutRefusal(
        soldOut.map((item) => ({ item, left: 0, asked: 1 })),
        tr,
      ),
    );
  // The profile is read as the order is placed: what it holds then is what the cook sees on the order.
  const allergies = await findAllergyProfile(app.db, customer.id);
  const conflicts = cartConflicts(priced, allergies);
  try {
    refuseUnacknowledged(conflicts, input.allergensAcknowledged ?? [], tr);
  } catch (error) {
    return refuse(error as HttpError);
  }
  const payment = paymentMethodOf(app, kitchen, input.payment);
  if (tipCents > 0 && payment !== 'card')
    throw badRequest(msg('A tip is paid by card: choose Pay by card, or leave no tip'), 'tipCents');
  if (tipCents > 0 && !kitchen.acceptsTips)
    throw new HttpError(409, TIPS_REFUSED, msg('{name} does not take tips.'), 'tipCents', undefined, {
      name: kitchen.name,
    });
  if (input.useCredit && payment !== 'card')
    throw badRequest(msg('Store credit is used with Pay by card'), 'useCredit');
  // The platform's part is computed on the order before any code: a code changes who pays, not the fee (ADR 30).
  const platformFeeCents =
    payment === 'card'
      ? platformFeeOf(
          dishTotals,
          // The commission in force today (a change announced 30 days ahead applies from its day: ADR 27).
          (await commissionOn(app.db, app.payments.config.commissionPercent, utcDay(now))).commissionPercent,
        )
      : 0;
  // A promotion code is checked now and taken in the order's transaction, where a use another order took
  // meanwhile is refused; its discount comes off what the customer pays (ADR 30).
  let applied: CodeApplied | undefined;
  if (input.code !== undefined) {
    try {
      applied = await checkCode(
        app.db,
        input.code,
        {
          customerId: customer.id,
          kitchenUid: kitchen.uid,
          itemsCents: totals.itemsCents,
          commissionCents: Math.max(0, platformFeeCents - totals.feesAndTaxCents),
          payment,
          now,
          currency: app.payments.config.currency,
        },
        tr,
      );
    } catch (error) {
      return refuse(error as HttpError);
    }
    totals.totalCents -= applied.discountCents;
  }
  // As much of the customer's credit as the order needs (ADR 29); taken in the order's transaction, where a spend
  // that another beat meanwhile is refused.
  const creditCents = input.useCredit
    ? Math.min(await creditBalance(app.db, customer.id), totals.totalCents)
    : 0;
  const byCredit = payment === 'card' && creditCents === totals.totalCents;
  const claims = portionClaims(priced);
  // A pre-order's portions are those of its slot's day.
  const portionsDay = claims.length ? (slot?.date ?? localTime(now, kitchen.timeZone).date) : null;
  // The meals of a kitchen whose rules cap them count against the day they are for (a pre-order's slot's day).
  const caps = capsInCurrency(profile.rules.caps, app.payments.config.currency);
  const capsDay = hasCaps(caps) ? (slot?.date ?? localTime(now, kitchen.timeZone).date) : null;
  const capsMeals = capsDay === null ? 0 : mealsOf(caps, priced.length);
  const order: NewOrder = {
    id: randomUUID(),
    at: now,
    kitchenUid: kitchen.uid,
    kitchenName: kitchen.name,
    customerId: customer.id,
    customerEmail: customer.email,
    address: fulfilment === 'delivery' ? (input.address ?? '') : '',
    fulfilment,
    slot: slot && {
      start: new Date(slot.start),
      end: new Date(slot.end),
      answerBy: answerBy(
        new Date(slot.start),
        kitchen.ordering.priorNoticeMinutes,
        now,
        app.payments.config.acceptWithinMinutes,
      ),
    },
    note: input.note ?? '',
    customerAllergies: [...allergies.allergens],
    allergensAcknowledged: conflicts,
    idempotencyKey: input.idempotencyKey,
    requestHash,
    portionsDay,
    capsDay,
    capsMeals,
    totals,
    payment,
    platformFeeCents,
    tipCents,
    creditCents,
    discount: applied
      ? { code: applied.code.code, cents: applied.discountCents, paidBy: applied.code.paidBy }
      : null,
    currency: app.payments.config.currency,
    lines: priced.map((line) => ({ menuItemId: line.id, item: line.item, priceCents: line.priceCents })),
  };
  try {
    // Without counted portions, one statement and no transaction: the unique indexes decide the rest in it (one
    // order for now per customer, one per kitchen and slot, one per (customer, idempotency key)), with no
    // read-then-insert window, and the change notices commit with it. With them, the portions are taken first, in the same transaction.
    const placed = await mutateInOneStatement(
      app,
      [
        {
          // A card order reaches its kitchen once paid (src/server/orders/order-payments.ts).
          type: payment === 'card' && !byCredit ? 'order.awaiting-payment' : 'order.placed',
          orderId: order.id,
          kitchenUid: kitchen.uid,
          customerId: customer.id,
          countsPortions: portionsDay !== null,
        },
      ],
      async (sending) => {
        // Undefined when the kitchen was suspended, paused or deleted since the read above: the insert checks
        // again, holding its row (and a transaction taking portions rolls back).
        const insert = async (db: DbOrTx) => {
          const placed = await insertOrder(db, order, sending);
          if (placed) return placed;
          const why = await whyNotServing(db, kitchen.uid);
          throw why === 'gone' ? kitchenGone() : why === 'suspended' ? suspended() : pausedRefusal(kitchen);
        };
        return portionsDay === null &&
          slot === null &&
          capsDay === null &&
          payment === 'card' &&
          creditCents === 0 &&
          !applied
          ? insert(app.db)
          : app.db.transaction(async (tx) => {
              // The order first, then what every order of the kitchen counts against (its slot's places, its
              // dishes' portions, its meals), each a row all of them wait for: taken last, they are held for the
              // fewest round trips before the commit (a refusal rolls the order back with them).
              const placed = await insert(tx);
              if (applied) await takeCode(tx, applied, { orderId: placed.id, customerId: customer.id, now });
              if (creditCents > 0)
                await moveCredit(tx, {
                  customerId: customer.id,
                  kind: 'spent',
                  amountCents: -creditCents,
                  currency: order.currency,
                  entry: spentEntry(placed.id),
                  orderId: placed.id,
                });
              if (
                slot &&
                !(await takeSlot(tx, kitchen.uid, new Date(slot.start), kitchen.ordering.ordersPerSlot))
              )
                throw slotFull();
              const short = portionsDay === null ? [] : await takePortions(tx, portionsDay, claims);
              if (short.length) throw soldOutRefusal(short, tr);
              if (capsDay !== null) {
                const over = await takeMeals(
                  tx,
                  kitchen.uid,
                  capsDay,
                  { meals: capsMeals, grossMinor: totals.itemsCents },
                  caps,
                );
                if (over) throw capRefusal(over, kitchen, tr);
              }
              // A cash order reaches its kitchen at once: its figures are recorded with it (rows of the kitchen's
              // day and hour, last for the same reason).
              if (payment === 'cash' || byCredit) await recordOrderFigures(tx, placed.id);
              return placed;
            });
      },
    );
    return {
      order: payment === 'card' && !byCredit && !offSession ? await startCheckout(app, placed) : placed,
      created: true,
    };
  } catch (error) {
    if (
      error instanceof HttpError &&
      [
        SOLD_OUT,
        KITCHEN_SUSPENDED,
        KITCHEN_CLOSED,
        SLOT_FULL,
        MEAL_CAP_REACHED,
        CREDIT_TOO_LOW,
        CODE_REFUSED,
      ].includes(error.code)
    )
      return refuse(error);
    // A dish deleted while this order was being placed: it is no longer on the menu (never a 500); or the whole
    // kitchen, its dishes with it.
    if (foreignKeyViolation(error))
      throw (await kitchenExists(app.db, kitchen.uid)) ? itemGone() : kitchenGone();
    // A unique index refused the insert: this submit was made before (a retry or a double click: answer with
    // that order), or the customer has another order in progress (409).
    const constraint = uniqueViolation(error);
    if (constraint === undefined) throw error;
    const earlier = await findOrderByKey(app.db, customer.id, input.idempotencyKey);
    if (earlier) {
      if (earlier.requestHash !== null && earlier.requestHash !== requestHash) throw keyReused();
      // A retry after a crash between the order and its payment page: the page is made (the same one, by its key).
      const again =
        needsCheckout(earlier.order) && !offSession
          ? await startCheckout(app, earlier.order, { repeat: true })
          : earlier.order;
      return { order: again, created: false };
    }
    if (constraint === 'orders_one_in_progress_per_customer') throw alreadyOpen();
    if (constraint === 'orders_one_in_progress_per_customer_slot') throw slotAlreadyOrdered();
    throw error;
  }
}
