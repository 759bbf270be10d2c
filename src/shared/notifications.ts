import { z } from 'zod';
import { isOneLine } from './fields.js';
import { msg, t } from './i18n/translator.js';

/**
 * What a person is told of, with the tab closed (by email and on their devices): the cook of a new order, of one
 * nobody accepted in time, of a cancellation by the customer, of a new review and of reports about the kitchen; the
 * customer of their order accepted (with its ready time), declined or cancelled (with the reason), on its way,
 * delivered (with 'Rate your order'), and of a refund.
 */
export const NOTICE_KINDS = [
  'order-new',
  'order-unanswered',
  'order-cancelled-by-customer',
  'review-new',
  'reports',
  'order-accepted',
  'order-declined',
  'order-cancelled',
  'order-dispatched',
  'order-delivered',
  'order-refunded',
  'document-expiring',
  'helper-card-due',
  'plan-week-failed',
  'plan-week-reminder',
  'plan-card-needs-you',
  'fee-change',
  'order-receipt',
  'order-problem',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * Emails no setting turns off: a change of the marketplace's fees is a notice the law asks for (California's
 * §114367.6: every cook told at least 30 days ahead, ADR 27), not a preference.
 */
export const ALWAYS_EMAILED: readonly NoticeKind[] = ['fee-change'];

/** What a cook who tries to turn off a notice the law asks for reads. */
export const LEGAL_NOTICE_LOCKED = msg(
  'Notices of a change of fees are always emailed: every cook must hear of it 30 days ahead',
);

/** Who hears of each kind: the kitchen's cook or the order's customer. */
export const NOTICE_AUDIENCE: Record<NoticeKind, 'kitchen' | 'customer'> = {
  'order-new': 'kitchen',
  'order-unanswered': 'kitchen',
  'order-cancelled-by-customer': 'kitchen',
  'review-new': 'kitchen',
  reports: 'kitchen',
  'order-accepted': 'customer',
  'order-declined': 'customer',
  'order-cancelled': 'customer',
  'order-dispatched': 'customer',
  'order-delivered': 'customer',
  'order-refunded': 'customer',
  'document-expiring': 'kitchen',
  'helper-card-due': 'kitchen',
  'plan-week-failed': 'customer',
  'plan-week-reminder': 'customer',
  'plan-card-needs-you': 'customer',
  'fee-change': 'kitchen',
  'order-receipt': 'customer',
  'order-problem': 'kitchen',
};

/** How each kind is named in 'Notifications'. */
export const NOTICE_LABELS: Record<NoticeKind, string> = {
  'order-new': msg('A new order'),
  'order-unanswered': msg('An order nobody accepted in time'),
  'order-cancelled-by-customer': msg('An order cancelled by its customer'),
  'review-new': msg('A new review'),
  reports: msg('Reports about your kitchen'),
  'order-accepted': msg('Your order accepted'),
  'order-declined': msg('Your order declined'),
  'order-cancelled': msg('Your order cancelled'),
  'order-dispatched': msg('Your order on its way'),
  'order-delivered': msg('Your order delivered'),
  'order-refunded': msg('A refund'),
  'document-expiring': msg('A permit or certificate about to expire'),
  'helper-card-due': msg('A helper’s food handler card soon due'),
  'plan-week-failed': msg('A week of your plan that could not be placed'),
  'plan-week-reminder': msg("A reminder the day before your plan's cut-off"),
  'plan-card-needs-you': msg('A week of your plan whose card payment needs you'),
  'fee-change': msg("A change of the marketplace's fees"),
  'order-receipt': msg('Your receipt, when your payment is taken'),
  'order-problem': msg('A problem reported with an order'),
};

/** A person's email setting for one kind. */
export const EmailSetting = z.object({
  kind: z.enum(NOTICE_KINDS),
  label: z.string(),
  email: z.boolean(),
  /** The cook's new-order email while the kitchen takes orders and has no push device: it cannot be turned off. */
  locked: z.boolean(),
});
export type EmailSetting = z.infer<typeof EmailSetting>;

/** A device that receives push notifications. */
export const PushDevice = z.object({
  id: z.string().uuid(),
  /** What the browser said it is ('Chrome on Android'), to tell devices apart. */
  name: z.string(),
  createdAt: z.string(),
});
export type PushDevice = z.infer<typeof PushDevice>;

/** GET /api/notifications/settings: the signed-in person's 'Notifications'. */
export const NotificationSettings = z.object({
  email: z.array(EmailSetting),
  devices: z.array(PushDevice),
  /** The server's VAPID public key (base64url), for `pushManager.subscribe`; null when push is off. */
  vapidPublicKey: z.string().nullable(),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const EmailSettingInput = z.object({
  kind: z.enum(NOTICE_KINDS, { error: () => t('Kind must be one of the notification kinds') }),
  email: z.boolean({ error: () => t('Email must be on or off') }),
});
export type EmailSettingInput = z.infer<typeof EmailSettingInput>;

/** A browser's push subscription (PushSubscription.toJSON()), and a name for the device. */
export const PushSubscriptionInput = z.object({
  endpoint: z
    .string({ error: () => t('Endpoint is required') })
    .max(2000, { error: () => t('Endpoint must be at most 2000 characters') })
    .url({ error: () => t('Endpoint must be an https link') })
    .refine((value) => value.startsWith('https://'), { error: () => t('Endpoint must be an https link') }),
  keys: z.object(
    {
      p256dh: z.string({ error: () => t('keys.p256dh is required') }).regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, {
        error: () => t('keys.p256dh must be a base64url P-256 key'),
      }),
      auth: z
        .string({ error: () => t('keys.auth is required') })
        .regex(/^[A-Za-z0-9_-]{16,30}={0,2}$/, { error: () => t('keys.auth must be a base64url secret') }),
    },
    { error: () => t('Keys are required') },
  ),
  name: z
    .string()
    .trim()
    .max(80, { error: () => t('Name must be at most 80 characters') })
    // PostgreSQL text holds no NUL: a device's name with one was a 500 (found by tests/api/hostile-input.test.ts).
    .refine(isOneLine, { error: () => t('Name must be one line of text without control characters') })
    .optional(),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

/** What a push carries to the service worker: the same message as the email's, and the page a tap opens. */
export const PushPayload = z.object({
  title: z.string(),
  body: z.string(),
  /** The app's path to open ('/KitchenOrders'). */
  url: z.string(),
  /** One notification per subject on the device (a later one replaces it). */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof PushPayload>;

/** Which of the browser's sessions a notifications route is for (one browser may hold a customer's and a kitchen's). */
export const SessionChoice = z.object({
  as: z.enum(['customer', 'kitchen'], { error: () => t("as must be 'customer' or 'kitchen'") }).optional(),
});
