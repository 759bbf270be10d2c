import { describe, expect, it } from 'vitest';
import { paymentText } from './payments.js';

describe('where an order’s money stands, in words', () => {
  it('never tells a kitchen a card order is paid while its capture is not confirmed', () => {
    const capturing = { method: 'card', state: 'capturing' } as const;
    expect(paymentText(capturing, 'kitchen')).not.toBe('Paid by card');
    expect(paymentText(capturing, 'kitchen')).toBe(
      'Card payment not taken yet: do not hand the order over until it says paid',
    );
    expect(paymentText({ method: 'card', state: 'captured' }, 'kitchen')).toBe('Paid by card');
    expect(paymentText(capturing, 'customer')).toBe('Card payment being taken');
  });
});
