import { and, eq } from 'drizzle-orm';
import { msg } from '../../shared/i18n/translator.js';
import { formatMoney } from '../../shared/money.js';
import { MAX_ITEMS_PER_ORDER } from '../../shared/orders.js';
import { PLAN_DISHES_UNAVAILABLE } from '../../shared/plans.js';
import type { DbOrTx } from '../db/database.js';
import type { mealPlans } from '../db/schema.js';
import { mealPlanWeekDishes, menuItems } from '../db/schema.js';
import { HttpError } from '../lib/errors.js';

/** A dish of the menu the cook's choice may pick. */
export interface Choosable {
  id: string;
  item: string;
  priceCents: number;
  soldOut: boolean;
}

/**
 * The cook's choice within `budgetCents` (dishes only), the same for the same menu and budget: the dishes not sold
 * out and not free, dearest first (then by name, then id); passes over that list take each dish that still fits what
 * is left, until a pass takes none or the order is full. So one of each dish that fits comes before any second
 * portion, and the budget is spent as far as the menu allows. Empty when nothing fits.
 */
export function cooksChoice(menu: readonly Choosable[], budgetCents: number): string[] {
  const candidates = menu
    .filter((dish) => !dish.soldOut && dish.priceCents > 0)
    .sort((a, b) => b.priceCents - a.priceCents || a.item.localeCompare(b.item) || a.id.localeCompare(b.id));
  const chosen: string[] = [];
  let left = budgetCents;
  for (let took = true; took && chosen.length < MAX_ITEMS_PER_ORDER;) {
    took = false;
    for (const dish of candidates) {
      if (dish.priceCents > left || chosen.length >= MAX_ITEMS_PER_ORDER) continue;
      chosen.push(dish.id);
      left -= dish.priceCents;
      took = true;
    }
  }
  return chosen;
}

const unavailable = (message: string, values: Record<string, string>) =>
  new HttpError(409, PLAN_DISHES_UNAVAILABLE, message, 'itemIds', undefined, values);

/**
 * The dishes of a plan's week at its placement (ADR 26): the cook's choice within the plan's budget; or the week's
 * own dishes (changed for it), else the plan's. A dish no longer on the menu is replaced by the cook's choice within
 * what the dishes still there leave of the budget, where the kitchen allows the cook's choice; otherwise, or when
 * nothing fits, the week is refused with why (it fails, told to the customer and the operator: never silently).
 */
export async function weekDishes(
  db: DbOrTx,
  plan: Pick<typeof mealPlans.$inferSelect, 'id' | 'kitchenId' | 'itemIds' | 'budgetCents' | 'cooksChoice'>,
  kitchen: { name: string; cooksChoiceAllowed: boolean; currency: string },
  slotDate: string,
): Promise<string[]> {
  const menu = await db
    .select({
      id: menuItems.id,
      item: menuItems.item,
      priceCents: menuItems.priceCents,
      soldOut: menuItems.soldOut,
    })
    .from(menuItems)
    .where(eq(menuItems.kitchenId, plan.kitchenId));
  const name = kitchen.name;
  if (plan.cooksChoice) {
    if (!kitchen.cooksChoiceAllowed)
      throw unavailable(msg('{name} no longer lets the cook choose, so this week was not ordered.'), {
        name,
      });
    const chosen = cooksChoice(menu, plan.budgetCents ?? 0);
    if (!chosen.length)
      throw unavailable(
        msg("Nothing on {name}'s menu fits your budget of {budget}, so this week was not ordered."),
        {
          name,
          budget: formatMoney(plan.budgetCents ?? 0, kitchen.currency),
        },
      );
    return chosen;
  }
  const [own] = await db
    .select({ itemIds: mealPlanWeekDishes.itemIds })
    .from(mealPlanWeekDishes)
    .where(and(eq(mealPlanWeekDishes.planId, plan.id), eq(mealPlanWeekDishes.slotDate, slotDate)));
  const ids = own?.itemIds ?? plan.itemIds;
  const onMenu = new Map(menu.map((dish) => [dish.id, dish]));
  const kept = ids.filter((id) => onMenu.has(id));
  if (kept.length === ids.length) return ids;
  // A dish left the menu: the cook's choice replaces it where allowed, within what it leaves of the budget.
  if (!kitchen.cooksChoiceAllowed || plan.budgetCents === null)
    throw unavailable(
      msg("A dish of your plan is no longer on {name}'s menu, so this week was not ordered."),
      {
        name,
      },
    );
  const left = plan.budgetCents - kept.reduce((sum, id) => sum + (onMenu.get(id)?.priceCents ?? 0), 0);
  const replacing = cooksChoice(
    menu.filter((dish) => !kept.includes(dish.id)),
    left,
  );
  if (!replacing.length)
    throw unavailable(
      msg(
        "A dish of your plan is no longer on {name}'s menu, and nothing else there fits its price, so this week was not ordered.",
      ),
      { name },
    );
  return [...kept, ...replacing];
}
