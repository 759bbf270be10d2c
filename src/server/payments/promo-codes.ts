import { randomInt } from 'node:crypto';
import { and, desc, eq, inArray, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.js';
import { msg, translator, type Translator } from '../../shared/i18n/translator.js';
import {
  CODE_ALPHABET,
  CODE_REFUSED,
  GENERATED_CODE_LENGTH,
  type CodePayer,
  type NewCodeInput,
  type PromoCode,
} from '../../shared/promo-codes.js';
import type { DbOrTx } from '../db/database.js';
import { kitchens, orders, promoCodes, promoCodeUses } from '../db/schema.js';
import { HttpError } from '../lib/errors.js';
import { uniqueViolation } from '../lib/unique-violation.js';
import type { Values } from '../../shared/i18n/messages.js';

/**
 * Promotion codes (issue 55, ADR 30): made by an operator (the platform pays) or a cook (their kitchen pays), checked
 * and taken in the order's own transaction, given back when the order ends early.
 */
type CodeRow = typeof promoCodes.$inferSelect;

/** 409 naming `code`, with why it cannot be used. */
export const codeRefused = (message: string, values?: Values) =>
  new HttpError(409, CODE_REFUSED, message, 'code', undefined, values);

/**
 * An unguessable code: `GENERATED_CODE_LENGTH` letters of an alphabet without look-alikes, each drawn by the
 * operating system's random source (25^10, about 2^46, codes: a guesser finds none by trying).
 */
export function generateCode(): string {
  let code = '';
  for (let i = 0; i < GENERATED_CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/**
 * What a code takes off an order, in minor units: its fixed amount, or its percentage of the dishes (rounded down)
 * up to its cap; never more than the dishes, and a kitchen's code never more than the kitchen's part of them (the
 * dishes less the platform's commission), so that its transfer cannot go below nothing.
 */
export function discountOf(
  code: Pick<CodeRow, 'amountOffCents' | 'percentOff' | 'maxDiscountCents' | 'paidBy'>,
  order: { itemsCents: number; commissionCents: number },
): number {
  const raw =
    code.amountOffCents ??
    Math.min(
      Math.floor((order.itemsCents * (code.percentOff ?? 0)) / 100),
      code.maxDiscountCents ?? Number.MAX_SAFE_INTEGER,
    );
  const most =
    code.paidBy === 'kitchen' ? Math.max(0, order.itemsCents - order.commissionCents) : order.itemsCents;
  return Math.max(0, Math.min(raw, most));
}

export interface CodeCheck {
  customerId: string;
  kitchenUid: string;
  itemsCents: number;
  commissionCents: number;
  payment: 'card' | 'cash';
  now: Date;
  currency: string;
}

/** A code found and good for this order (not yet taken): its row and the discount. */
export interface CodeApplied {
  code: CodeRow;
  discountCents: number;
}

/**
 * Checks a code against an order about to be placed, without taking it: 409 naming `code` with the reason (no such
 * code, turned off, not started, expired, used up, used by this customer, first orders only, another kitchen's,
 * below its minimum, a platform code with cash). The take in the order's transaction checks what can change meanwhile again.
 */
export async function checkCode(
  db: DbOrTx,
  typed: string,
  order: CodeCheck,
  tr: Translator = translator(),
): Promise<CodeApplied> {
  const [code] = await db.select().from(promoCodes).where(eq(promoCodes.code, typed));
  if (!code) throw codeRefused(msg('There is no code {code}. Please check it.'), { code: typed });
  const named = { code: code.code };
  if (!code.active) throw codeRefused(msg('The code {code} has been turned off.'), named);
  if (code.startsAt && code.startsAt > order.now)
    throw codeRefused(msg('The code {code} can be used from {date}.'), {
      ...named,
      date: tr.date(code.startsAt, 'date'),
    });
  if (code.endsAt && code.endsAt <= order.now) throw codeRefused(msg('The code {code} has expired.'), named);
  if (code.kitchenId !== null && code.kitchenId !== order.kitchenUid) {
    const [kitchen] = await db
      .select({ name: kitchens.name })
      .from(kitchens)
      .where(eq(kitchens.ownerId, code.kitchenId));
    throw codeRefused(msg('The code {code} is for orders from {kitchen} only.'), {
      ...named,
      kitchen: kitchen?.name ?? '',
    });
  }
  if (code.maxUses !== null && code.usesCount >= code.maxUses)
    throw codeRefused(msg('The code {code} has been used up.'), named);
  if (code.paidBy === 'platform' && order.payment !== 'card')
    throw codeRefused(msg('The code {code} is used with Pay by card.'), named);
  if (order.itemsCents < code.minOrderCents)
    throw codeRefused(msg('The code {code} needs an order of at least {amount}.'), {
      ...named,
      amount: formatMoney(code.minOrderCents, code.currency, tr),
    });
  await refuseCustomerLimits(db, code, order.customerId);
  const discountCents = discountOf(code, order);
  if (discountCents === 0) throw codeRefused(msg('The code {code} takes nothing off this order.'), named);
  return { code, discountCents };
}

/** Per customer: how many times, and first orders only. Orders that ended early do not count. */
async function refuseCustomerLimits(db: DbOrTx, code: CodeRow, customerId: string, orderId?: string) {
  const named = { code: code.code };
  if (code.maxUsesPerCustomer !== null) {
    const [used] = await db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(promoCodeUses)
      .where(
        and(
          eq(promoCodeUses.codeId, code.id),
          eq(promoCodeUses.customerId, customerId),
          isNull(promoCodeUses.returnedAt),
          orderId ? ne(promoCodeUses.orderId, orderId) : undefined,
        ),
      );
    if ((used?.n ?? 0) >= code.maxUsesPerCustomer)
      throw codeRefused(
        code.maxUsesPerCustomer === 1
          ? msg('You have used the code {code} already.')
          : msg('You have used the code {code} as many times as it allows.'),
        named,
      );
  }
  if (code.firstOrderOnly) {
    const [earlier] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.customerId, customerId),
          notInArray(orders.state, ['cancelled', 'declined']),
          orderId ? ne(orders.id, orderId) : undefined,
        ),
      )
      .limit(1);
    if (earlier) throw codeRefused(msg('The code {code} is for first orders only.'), named);
  }
}

/**
 * Takes one use of a code for an order, in the order's transaction: one conditional update counts it while the code
 * is on, in its window and not used up (of 20 orders racing for its last use, each waits for the row lock of the one
 * before and finds the count it left: one wins), then, holding that lock, the customer's own limits are checked
 * again and the use recorded. A refusal throws 409 naming `code` (the transaction rolls back).
 */
export async function takeCode(
  tx: DbOrTx,
  applied: CodeApplied,
  use: { orderId: string; customerId: string; now: Date },
): Promise<void> {
  const { code } = applied;
  const [taken] = await tx
    .update(promoCodes)
    .set({ usesCount: sql`${promoCodes.usesCount} + 1` })
    .where(
      and(
        eq(promoCodes.id, code.id),
        eq(promoCodes.active, true),
        or(isNull(promoCodes.maxUses), sql`${promoCodes.usesCount} < ${promoCodes.maxUses}`),
        or(isNull(promoCodes.startsAt), sql`${promoCodes.startsAt} <= ${use.now.toISOString()}::timestamptz`),
        or(isNull(promoCodes.endsAt), sql`${promoCodes.endsAt} > ${use.now.toISOString()}::timestamptz`),
      ),
    )
    .returning({ id: promoCodes.id, active: promoCodes.active });
  if (!taken) {
    const [now] = await tx
      .select({ active: promoCodes.active })
      .from(promoCodes)
      .where(eq(promoCodes.id, code.id));
    throw now?.active === false
      ? codeRefused(msg('The code {code} has been turned off.'), { code: code.code })
      : codeRefused(msg('The code {code} has been used up.'), { code: code.code });
  }
  await refuseCustomerLimits(tx, code, use.customerId, use.orderId);
  await tx.insert(promoCodeUses).values({
    codeId: code.id,
    orderId: use.orderId,
    customerId: use.customerId,
    discountCents: applied.discountCents,
  });
}

/** An order that ended early (declined, cancelled, never paid) gives its code's use back, once. */
export async function giveCodeBack(tx: DbOrTx, orderId: string): Promise<void> {
  const back = await tx
    .update(promoCodeUses)
    .set({ returnedAt: sql`now()` })
    .where(and(eq(promoCodeUses.orderId, orderId), isNull(promoCodeUses.returnedAt)))
    .returning({ codeId: promoCodeUses.codeId });
  if (back.length === 0) return;
  await tx
    .update(promoCodes)
    .set({ usesCount: sql`greatest(${promoCodes.usesCount} - 1, 0)` })
    .where(
      inArray(
        promoCodes.id,
        back.map((row) => row.codeId),
      ),
    );
}

/** Makes a code: the one asked for (409 naming `code` when it exists already) or a generated one. */
export async function createCode(
  db: DbOrTx,
  input: NewCodeInput,
  owner: { paidBy: CodePayer; kitchenId: string | null; createdBy: string; currency: string },
): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = input.code ?? generateCode();
    try {
      const [row] = await db
        .insert(promoCodes)
        .values({
          code,
          paidBy: owner.paidBy,
          kitchenId: owner.kitchenId,
          amountOffCents: input.amountOffCents ?? null,
          percentOff: input.percentOff ?? null,
          maxDiscountCents: input.maxDiscountCents ?? null,
          minOrderCents: input.minOrderCents ?? 0,
          startsAt: input.startsAt ? new Date(input.startsAt) : null,
          endsAt: input.endsAt ? new Date(input.endsAt) : null,
          maxUses: input.maxUses ?? null,
          maxUsesPerCustomer: input.maxUsesPerCustomer ?? null,
          firstOrderOnly: input.firstOrderOnly ?? false,
          currency: owner.currency,
          createdBy: owner.createdBy,
        })
        .returning({ id: promoCodes.id });
      if (row) return row.id;
    } catch (error) {
      if (uniqueViolation(error) !== 'promo_codes_code_key') throw error;
      if (input.code !== undefined)
        throw new HttpError(409, 'CONFLICT', msg('The code {code} exists already.'), 'code', undefined, {
          code,
        });
    }
  }
  throw new Error('could not generate a code that is not taken');
}

/** The codes of the platform (kitchenOwner undefined: all) or of one kitchen, newest first, with their uses. */
export async function listCodes(db: DbOrTx, kitchenOwner?: string): Promise<PromoCode[]> {
  const rows = await db
    .select({
      code: promoCodes,
      kitchenName: kitchens.name,
      uses: sql<number>`(select count(*) from ${promoCodeUses} u where u.code_id = ${promoCodes.id} and u.returned_at is null)::int`.mapWith(
        Number,
      ),
      discountCents:
        sql<number>`(select coalesce(sum(u.discount_cents), 0) from ${promoCodeUses} u where u.code_id = ${promoCodes.id} and u.returned_at is null)::int`.mapWith(
          Number,
        ),
    })
    .from(promoCodes)
    .leftJoin(kitchens, eq(kitchens.ownerId, promoCodes.kitchenId))
    .where(
      kitchenOwner === undefined
        ? undefined
        : and(eq(promoCodes.kitchenId, kitchenOwner), eq(promoCodes.paidBy, 'kitchen')),
    )
    .orderBy(desc(promoCodes.createdAt), desc(promoCodes.id))
    .limit(500);
  return rows.map(({ code, kitchenName, uses, discountCents }) => ({
    id: code.id,
    code: code.code,
    paidBy: code.paidBy,
    kitchenUid: code.kitchenId,
    kitchenName: kitchenName ?? null,
    amountOffCents: code.amountOffCents,
    percentOff: code.percentOff,
    maxDiscountCents: code.maxDiscountCents,
    minOrderCents: code.minOrderCents,
    startsAt: code.startsAt?.toISOString() ?? null,
    endsAt: code.endsAt?.toISOString() ?? null,
    maxUses: code.maxUses,
    maxUsesPerCustomer: code.maxUsesPerCustomer,
    firstOrderOnly: code.firstOrderOnly,
    active: code.active,
    uses,
    discountCents,
    currency: code.currency,
    createdAt: code.createdAt.toISOString(),
  }));
}

/** Turns a code on or off at once (an order taking it after this commit is refused); false when not found there. */
export async function setCodeActive(
  db: DbOrTx,
  id: string,
  active: boolean,
  kitchenOwner?: string,
): Promise<boolean> {
  const changed = await db
    .update(promoCodes)
    .set({ active })
    .where(
      and(
        eq(promoCodes.id, id),
        kitchenOwner === undefined
          ? undefined
          : and(eq(promoCodes.kitchenId, kitchenOwner), eq(promoCodes.paidBy, 'kitchen')),
      ),
    )
    .returning({ id: promoCodes.id });
  return changed.length > 0;
}
