import {
  ALLERGENS,
  allergenName,
  conflictsOf,
  type Allergen,
  type AllergyProfile,
} from '../../shared/allergen-set.js';
import type { MenuItem } from '../../shared/menu.js';
import { pageLocale, t } from '../i18n.js';

export interface CartConflicts {
  /** Allergens of the profile a dish of the cart contains. */
  contains: Allergen[];
  /** Those a dish may contain (and none contains), when 'may contain' matters. */
  mayContain: Allergen[];
  all: Allergen[];
}

/** The allergens of the profile the cart's dishes hold, as their menu declares them now. */
export function cartAllergyConflicts(
  lines: readonly { id: string }[],
  menu: readonly MenuItem[],
  profile: AllergyProfile,
): CartConflicts {
  const byId = new Map(menu.map((item) => [item.id, item]));
  const contains = new Set<Allergen>();
  const may = new Set<Allergen>();
  for (const line of lines) {
    const item = byId.get(line.id);
    if (!item) continue;
    const found = conflictsOf({ contains: item.allergens, mayContain: item.mayContain }, profile);
    for (const a of found.contains) contains.add(a);
    for (const a of found.mayContain) may.add(a);
  }
  const c = ALLERGENS.filter((a) => contains.has(a));
  const m = ALLERGENS.filter((a) => may.has(a) && !contains.has(a));
  return { contains: c, mayContain: m, all: ALLERGENS.filter((a) => contains.has(a) || may.has(a)) };
}

const names = (allergens: readonly Allergen[]) =>
  allergens.map((a) => allergenName(a, pageLocale())).join(t(', '));

/** 'I understand this order contains sesame' (and what it may contain). */
export function acknowledgement({ contains, mayContain }: CartConflicts): string {
  if (contains.length && mayContain.length)
    return t('I understand this order contains {allergens} and may contain {maybe}', {
      allergens: names(contains),
      maybe: names(mayContain),
    });
  if (contains.length)
    return t('I understand this order contains {allergens}', { allergens: names(contains) });
  return t('I understand this order may contain {allergens}', { allergens: names(mayContain) });
}
