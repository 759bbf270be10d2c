import { expect, it } from 'vitest';
import { cuisinesOf } from './cuisines.js';

it('lists the categories in use once each, any case, most used first, then by name', () => {
  const kitchens = ['Indian', 'mexican', 'Mexican ', 'Filipino', 'indian', 'INDIAN', ' '].map((category) => ({
    category,
  }));
  expect(cuisinesOf(kitchens)).toEqual(['Indian', 'mexican', 'Filipino']);
  expect(cuisinesOf(kitchens, 1)).toEqual(['Indian']);
});
