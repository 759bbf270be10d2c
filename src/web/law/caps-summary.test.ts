import { expect, it } from 'vitest';
import type { Caps } from '../../shared/jurisdictions.js';
import { capsSummary } from './caps-summary.js';

const california: Caps = {
  mealsPerDay: 30,
  mealsPerWeek: 90,
  grossPerYear: { amountMinor: 10_000_000, currency: 'USD' },
  meal: 'dish-portion',
};

it("says the issue's card: meals this week and gross this year against the caps, whole dollars", () => {
  expect(
    capsSummary(california, { today: 12, thisWeek: 72, thisYearGrossMinor: 6_124_099 }).join(' · '),
  ).toBe('This week: 72 of 90 meals · This year: $61,240 of $100,000');
});

it('falls back to the day when only meals a day are capped, and leaves out what is not capped', () => {
  const daily: Caps = { mealsPerDay: 30, mealsPerWeek: null, grossPerYear: null, meal: 'order' };
  expect(capsSummary(daily, { today: 7, thisWeek: 20, thisYearGrossMinor: 0 })).toEqual([
    'Today: 7 of 30 meals',
  ]);
});
