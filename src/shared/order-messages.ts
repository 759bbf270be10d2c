import { z } from 'zod';
import { multilineText } from './fields.js';
import { msg, t, type Translator, translator } from './i18n/translator.js';

/** A message of an order's conversation is 1 to this many characters (line breaks allowed). */
export const ORDER_MESSAGE_MAX_LENGTH = 500;
/** How many of an order's latest messages its conversation shows. */
export const ORDER_MESSAGES_SHOWN = 200;
/** How long after an order ended its customer and its cook may still write to each other. */
export const ORDER_MESSAGES_OPEN_DAYS = 7;
export const ORDER_MESSAGES_OPEN_MS = ORDER_MESSAGES_OPEN_DAYS * 24 * 3600 * 1000;
/** Each person may send at most `messages` in any `windowSeconds` on one order. */
export const ORDER_MESSAGE_RATE_LIMIT = { messages: 5, windowSeconds: 10 } as const;

/** Who wrote a message: the order's customer or its kitchen. */
export const OrderMessageAuthor = z.enum(['customer', 'kitchen']);
export type OrderMessageAuthor = z.infer<typeof OrderMessageAuthor>;

/**
 * One message, as both sides (and operators) read it. No "mine": a live topic's snapshot is shared by everyone
 * following it, so the browser tells its own messages by its role (`from`).
 */
export const OrderMessage = z.object({
  id: z.string().uuid(),
  from: OrderMessageAuthor,
  text: z.string(),
  createdAt: z.string(),
});
export type OrderMessage = z.infer<typeof OrderMessage>;

/**
 * An order's conversation: its latest messages, oldest first; whether writing was open when it was loaded (and if
 * not, why); and until when it stays open (null while the order is in progress). A page holding it long compares
 * `closesAt` with its own clock too.
 */
export const OrderConversation = z.object({
  messages: z.array(OrderMessage),
  open: z.boolean(),
  closedBecause: z.string().nullable(),
  closesAt: z.string().nullable(),
});
export type OrderConversation = z.infer<typeof OrderConversation>;

/**
 * What the browser sends: the text (trimmed, 1..500 characters, several lines allowed), and which side it writes as
 * when one browser holds both a customer's and a kitchen's session (left out: the customer's, else the kitchen's).
 * The author comes from that session.
 */
export const OrderMessageInput = z.object({
  text: multilineText(msg('Message'), ORDER_MESSAGE_MAX_LENGTH).min(1, {
    error: () => t('Message is required'),
  }),
  as: z.enum(OrderMessageAuthor.options, { error: () => t("as must be 'customer' or 'kitchen'") }).optional(),
});
export type OrderMessageInput = z.infer<typeof OrderMessageInput>;

/** Whether one may still write, by the conversation's snapshot and the time now. */
export function conversationOpen(conversation: OrderConversation, now: number): boolean {
  return (
    conversation.open && (conversation.closesAt === null || now < new Date(conversation.closesAt).getTime())
  );
}

/** What a page says once writing has closed. */
export const MESSAGES_CLOSED = msg('Messages are closed for this order');
/** Why writing on an order is closed now, said to both sides (undefined: it is open). */
export function closedText(
  conversation: OrderConversation,
  now: number,
  tr: Translator = translator(),
): string | undefined {
  // `closedBecause` is one of the server's messages (src/server/order-messages/order-message-queries.ts).
  if (!conversation.open) return tr.t(conversation.closedBecause ?? MESSAGES_CLOSED);
  return conversationOpen(conversation, now) ? undefined : tr.t(MESSAGES_CLOSED);
}
