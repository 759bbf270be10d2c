import { z } from 'zod';
import { t } from './i18n/translator.js';

/** How many messages the chat sends at once: the latest page, and each page of history. */
export const CHAT_PAGE_SIZE = 100;
/** A message is 1 to this many characters (Unicode code points, as PostgreSQL's char_length counts). */
export const CHAT_MAX_LENGTH = 500;
/** Each user may send at most `messages` in any `windowSeconds`. */
export const CHAT_RATE_LIMIT = { messages: 5, windowSeconds: 10 } as const;

/** A chat message as every signed-in reader sees it. */
export const ChatMessage = z.object({
  id: z.string().uuid(),
  text: z.string(),
  createdAt: z.string(),
  uid: z.string().uuid(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatMessageList = z.array(ChatMessage);
export type ChatMessageList = z.infer<typeof ChatMessageList>;

/**
 * What the browser sends: only the text. The sender comes from the session; other fields are dropped.
 * NUL is refused because PostgreSQL text cannot hold it.
 */
export const ChatMessageInput = z.object({
  text: z
    .string({
      error: (issue) => (issue.input === undefined ? t('Message is required') : t('Message must be text')),
    })
    .trim()
    .min(1, { error: () => t('Message is required') })
    .refine((text) => [...text].length <= CHAT_MAX_LENGTH, {
      error: () => t('Message must be at most {max} characters', { max: String(CHAT_MAX_LENGTH) }),
    })
    .refine((text) => !text.includes('\u0000'), { error: () => t('Message cannot contain NUL characters') }),
});
export type ChatMessageInput = z.infer<typeof ChatMessageInput>;

/** Older messages than the one with id `before` (the oldest the reader holds). */
export const ChatHistoryQuery = z.object({
  before: z
    .string({ error: () => t('before is required') })
    .uuid({ error: () => t('before must be a message id') }),
});
export type ChatHistoryQuery = z.infer<typeof ChatHistoryQuery>;

/** How many of the latest hidden messages' ids the chat's readers are told, so that open pages drop them. */
export const CHAT_HIDDEN_IDS = 500;

/**
 * The ids of the messages an operator hid most recently, newest first: an open chat page drops them, whether in
 * the latest page or in history it loaded earlier.
 */
export const HiddenChatMessageIds = z.array(z.string().uuid());
export type HiddenChatMessageIds = z.infer<typeof HiddenChatMessageIds>;
