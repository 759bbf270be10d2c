import { describe, expect, it } from 'vitest';
import { setTranslator, Translator } from '../../shared/i18n/translator.js';
import type { MenuItem } from '../../shared/menu.js';
import { toInput } from './edit-menu-item-modal.js';

const dish: MenuItem = {
  id: '5b0a4f4e-8f7e-4c1e-9b1a-0d6f0f3c2a11',
  kitchenUid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  item: 'Onigiri',
  secondName: null,
  imageLink: 'https://example.org/o.jpg',
  image: null,
  priceCents: 500,
  wait: '10 min',
  dietary: [],
  allergens: [],
  mayContain: [],
  allergensDeclared: true,
  ingredients: '',
  keepsDays: null,
  reheating: '',
  soldOut: false,
  portionsPerDay: null,
  portionsLeft: null,
};

describe('editing a dish', () => {
  it('shows its price as the cook typed it, in the currency’s units: 500 cents "5.00", 500 yen "500"', () => {
    expect(toInput(dish).price).toBe('5.00');
    const previous = setTranslator(new Translator({ locale: 'en', messages: {}, currency: 'JPY' }));
    try {
      expect(toInput(dish).price).toBe('500');
    } finally {
      setTranslator(previous);
    }
  });
});
