import type { Caps, KitchenRules } from '../../shared/jurisdictions.js';
import { formatWholeMoney } from '../../shared/money.js';
import { t } from '../i18n.js';

/** 'This week: 72 of 90 meals · This year: $61,240 of $100,000', from the caps the kitchen's rules set. */
export function capsSummary(caps: Caps, counted: NonNullable<KitchenRules['counted']>): string[] {
  const parts: string[] = [];
  if (caps.mealsPerWeek !== null)
    parts.push(t('This week: {meals} of {cap} meals', { meals: counted.thisWeek, cap: caps.mealsPerWeek }));
  else if (caps.mealsPerDay !== null)
    parts.push(t('Today: {meals} of {cap} meals', { meals: counted.today, cap: caps.mealsPerDay }));
  if (caps.grossPerYear !== null)
    parts.push(
      t('This year: {gross} of {cap}', {
        gross: formatWholeMoney(counted.thisYearGrossMinor, caps.grossPerYear.currency),
        cap: formatWholeMoney(caps.grossPerYear.amountMinor, caps.grossPerYear.currency),
      }),
    );
  return parts;
}
