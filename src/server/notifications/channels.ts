import type { NoticeKind, PushPayload } from '../../shared/notifications.js';

/** A notice as a person reads it: the same words by email and on a device, and the page that shows it. */
export interface RenderedNotice {
  /** The email's subject and the push's title: 'New order from ana@example.com'. */
  subject: string;
  /** Plain text (the push's body is its first paragraph). */
  text: string;
  /** HTML, everything a user typed escaped. */
  html: string;
  /** The app's path that shows it ('/KitchenOrders'), made absolute for email. */
  path: string;
}

/** An email on its way: to whom, what, its stable Message-ID (one per notice and recipient), and how to stop them. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** '<order:…:accepted:…@homecooked>': a retry sends the same Message-ID, so a mailbox can tell a repeat. */
  messageId: string;
  /** The one-click unsubscribe link (RFC 8058) for this recipient and kind. */
  unsubscribeUrl: string;
  /** The words of that link at the mail's end, in the recipient's language ('Turn off these emails' if left out). */
  unsubscribeLabel?: string;
}

/** Sends email (SMTP through nodemailer, or the development mailbox); throws when it could not (the worker retries). */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

/** One device's Web Push subscription. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Sends Web Push (through `web-push`, VAPID-signed and encrypted for the subscription): 'sent', 'gone' when the
 * push service says the subscription no longer exists (404/410), or 'refused' when its endpoint is, or resolves to,
 * an address of the server's own network (nothing was sent; the caller removes it as it does one gone); throws
 * otherwise (retried).
 */
export interface Pusher {
  readonly publicKey: string;
  send(target: PushTarget, payload: PushPayload): Promise<PushOutcome>;
}

export type PushOutcome = 'sent' | 'gone' | 'refused';

/** What the worker needs to send one notice: the channels, and how to render and address it. */
export interface NoticeChannels {
  /** Null in production without SMTP_URL: no email is sent (a warning at start says so). */
  mailer: Mailer | null;
  /** Null when push is off (no VAPID keys in production). */
  pusher: Pusher | null;
}

/** The notice's row as the worker hands it to rendering. */
export interface NoticeRef {
  kind: NoticeKind;
  subjectId: string;
  recipientId: string;
}
