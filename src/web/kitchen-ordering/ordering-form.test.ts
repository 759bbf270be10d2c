import { describe, expect, it } from 'vitest';
import { setTranslator, Translator } from '../../shared/i18n/translator.js';
import { DEFAULT_ORDERING, type OrderingSettings } from '../../shared/ordering.js';
import { formFieldOf, formValuesOf, inputOf, validateOrdering, withCurrent } from './ordering-form.js';

const slots: OrderingSettings = {
  ...DEFAULT_ORDERING,
  offersPickup: true,
  pickupAddress: '5 Pickup Yard',
  pickupInstructions: 'Ring twice',
  slotMinutes: 45,
  priorNoticeMinutes: 60,
  daysAhead: 3,
  sameDayCutoff: '14:00',
  ordersPerSlot: 10,
  minimumOrderCents: 1550,
};

describe("the 'How you take orders' form", () => {
  it('shows saved options as the form holds them, and sends them back unchanged', () => {
    const values = formValuesOf(slots);
    expect(values).toMatchObject({
      forLater: true,
      slotMinutes: '45',
      daysAhead: '3',
      minimumOrder: '15.50',
    });
    expect(inputOf(values)).toEqual(slots);
    expect(inputOf(formValuesOf(DEFAULT_ORDERING))).toEqual(DEFAULT_ORDERING);
    expect(validateOrdering(formValuesOf(slots))).toEqual({});
  });

  it('starts slots at 30 minutes when they are turned on, and sends none with them off', () => {
    const values = formValuesOf(DEFAULT_ORDERING);
    expect(values).toMatchObject({
      forLater: false,
      slotMinutes: '30',
      sameDayCutoff: '',
      ordersPerSlot: '',
    });
    expect(inputOf({ ...values, forLater: true })).toMatchObject({ slotMinutes: 30, ordersPerSlot: null });
    expect(inputOf({ ...formValuesOf(slots), forLater: false })).toMatchObject({
      slotMinutes: null,
      sameDayCutoff: null,
      ordersPerSlot: null,
    });
  });

  it('reads the minimum order in dollars: empty is none, "$12" and "12.5" are amounts', () => {
    const values = formValuesOf(DEFAULT_ORDERING);
    expect(inputOf({ ...values, minimumOrder: '' }).minimumOrderCents).toBe(0);
    expect(inputOf({ ...values, minimumOrder: '$12' }).minimumOrderCents).toBe(1200);
    expect(inputOf({ ...values, minimumOrder: ' 12.5 ' }).minimumOrderCents).toBe(1250);
    expect(validateOrdering({ ...values, minimumOrder: 'twelve' })).toEqual({
      minimumOrder: 'Minimum order must be an amount, such as 15 or 15.50',
    });
    expect(validateOrdering({ ...values, minimumOrder: '600' })).toEqual({
      minimumOrder: 'Minimum order must be at most $500.00',
    });
  });

  it('names the problems on the fields the cook sees', () => {
    const values = formValuesOf(DEFAULT_ORDERING);
    expect(validateOrdering({ ...values, offersDelivery: false })).toEqual({
      offersDelivery: 'Offer delivery, pickup or both',
    });
    expect(validateOrdering({ ...values, offersPickup: true })).toEqual({
      pickupAddress: 'Pickup address is required for pickup',
    });
    expect(validateOrdering({ ...values, takesAsap: false })).toEqual({
      takesAsap: "Take orders 'As soon as possible', in time slots, or both",
    });
    expect(validateOrdering({ ...values, forLater: true, ordersPerSlot: 0 })).toEqual({
      ordersPerSlot: 'Orders per slot must be at least 1',
    });
  });

  it("maps the server's field names onto the form's", () => {
    expect(formFieldOf('minimumOrderCents')).toBe('minimumOrder');
    expect(formFieldOf('pickupAddress')).toBe('pickupAddress');
    expect(formFieldOf('body')).toBeUndefined();
  });

  it('keeps a value the options do not list', () => {
    const options = [{ value: '30', label: '30 minutes' }];
    expect(withCurrent(options, '30', String)).toBe(options);
    expect(withCurrent(options, '240', (v) => `${v} minutes`)).toEqual([
      ...options,
      { value: '240', label: '240 minutes' },
    ]);
  });

  it('writes and reads the minimum order in the currency’s units: 500 yen is "500"', () => {
    const previous = setTranslator(new Translator({ locale: 'en', messages: {}, currency: 'JPY' }));
    try {
      const yen = { ...slots, minimumOrderCents: 500 };
      expect(formValuesOf(yen).minimumOrder).toBe('500');
      expect(inputOf(formValuesOf(yen))).toEqual(yen);
      expect(inputOf({ ...formValuesOf(yen), minimumOrder: '1200' }).minimumOrderCents).toBe(1200);
      expect(inputOf({ ...formValuesOf(yen), minimumOrder: '12.50' }).minimumOrderCents).toBeNaN();
    } finally {
      setTranslator(previous);
    }
  });
});
