import { describe, expect, it } from 'vitest';
import { closedText, MESSAGES_CLOSED, OrderMessageInput, type OrderConversation } from './order-messages.js';

const conversation = (over: Partial<OrderConversation>): OrderConversation => ({
  messages: [],
  open: true,
  closedBecause: null,
  closesAt: null,
  ...over,
});

describe('an order conversation', () => {
  it('is open while the order is in progress, and until its closing time after it ended', () => {
    const closesAt = '2030-01-08T12:00:00.000Z';
    expect(closedText(conversation({}), Date.parse('2031-01-01'))).toBeUndefined();
    expect(closedText(conversation({ closesAt }), Date.parse(closesAt) - 1)).toBeUndefined();
    // A page left open past the closing time closes by its own clock.
    expect(closedText(conversation({ closesAt }), Date.parse(closesAt))).toBe(MESSAGES_CLOSED);
  });

  it("says the server's reason once it is closed", () => {
    const closed = conversation({ open: false, closedBecause: 'You can write once your order is paid' });
    expect(closedText(closed, 0)).toBe('You can write once your order is paid');
  });

  it('takes trimmed text of 1 to 500 characters, on several lines, without control characters', () => {
    expect(OrderMessageInput.parse({ text: '  No peanuts\nplease ' })).toEqual({
      text: 'No peanuts\nplease',
    });
    for (const text of ['', ' \n ', 'x'.repeat(501), 'a\u0000b', 'a\u0007b', '\u202Eevil'])
      expect(OrderMessageInput.safeParse({ text }).success, JSON.stringify(text)).toBe(false);
    expect(OrderMessageInput.safeParse({ text: 'x'.repeat(500) }).success).toBe(true);
  });
});
