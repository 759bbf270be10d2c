import { z } from 'zod';
import { msg, t } from './i18n/translator.js';
import { DOCUMENT_KINDS, DocumentFile } from './kitchen-documents.js';

export * from './moderation-texts.js';

/** The API's words, to anyone but its cook and operators, for a kitchen not listed under its place's rules. */
export const KITCHEN_NOT_LISTED = msg('This kitchen is not available: it is not listed on HomeCooked.');

/** What a signed-in user may report. */
export const REPORT_TARGET_KINDS = ['chat_message', 'review', 'kitchen'] as const;
export const ReportTargetKind = z.enum(REPORT_TARGET_KINDS, {
  error: () => t('targetKind must be one of {kinds}', { kinds: REPORT_TARGET_KINDS.join(', ') }),
});
export type ReportTargetKind = z.infer<typeof ReportTargetKind>;

/** A reason is 1 to this many characters (Unicode code points, as PostgreSQL's char_length counts). */
export const REPORT_REASON_MAX = 500;
/** Each user may file at most `reports` reports in any `windowMinutes`. */
export const REPORT_RATE_LIMIT = { reports: 10, windowMinutes: 10 } as const;

/** A report's reason: several lines are fine, NUL and bidi overrides are not. */
const reason = z
  .string({
    error: (issue) => (issue.input === undefined ? t('Reason is required') : t('Reason must be text')),
  })
  .trim()
  .min(1, { error: () => t('Reason is required') })
  .refine((text) => [...text].length <= REPORT_REASON_MAX, {
    error: () => t('Reason must be at most {max} characters', { max: String(REPORT_REASON_MAX) }),
  })
  .refine(
    // eslint-disable-next-line no-control-regex
    (text) => !/[\u0000\u202A-\u202E\u2066-\u2069]/.test(text),
    { error: () => t('Reason cannot contain NUL or bidi controls') },
  );

/** `POST /api/reports`: the reporter comes from the session. */
export const ReportInput = z.object({
  targetKind: ReportTargetKind,
  targetId: z
    .string({ error: () => t('targetId is required') })
    .uuid({ error: () => t('targetId must be an id') }),
  reason,
});
export type ReportInput = z.infer<typeof ReportInput>;

/** A report as its reporter gets it back. */
export const Report = z.object({
  id: z.string().uuid(),
  targetKind: ReportTargetKind,
  targetId: z.string().uuid(),
  reason: z.string(),
  createdAt: z.string(),
});
export type Report = z.infer<typeof Report>;

/** The error code of a second open report of the same thing by the same user (409). */
export const ALREADY_REPORTED = 'ALREADY_REPORTED';

/** What a report is about, as the operator sees it; null when it no longer exists. */
export const ReportedThing = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('chat_message'),
    text: z.string(),
    authorName: z.string(),
    hidden: z.boolean(),
  }),
  z.object({
    kind: z.literal('review'),
    stars: z.number().int(),
    text: z.string(),
    authorName: z.string(),
    kitchenUid: z.string().uuid(),
    kitchenName: z.string(),
    hidden: z.boolean(),
  }),
  z.object({ kind: z.literal('kitchen'), uid: z.string().uuid(), name: z.string(), suspended: z.boolean() }),
]);
export type ReportedThing = z.infer<typeof ReportedThing>;

export const OpenReport = z.object({
  id: z.string().uuid(),
  targetKind: ReportTargetKind,
  targetId: z.string().uuid(),
  reason: z.string(),
  /** Null once the reporter deleted their account. */
  reporterName: z.string().nullable(),
  createdAt: z.string(),
  target: ReportedThing.nullable(),
});
export type OpenReport = z.infer<typeof OpenReport>;

export const OPERATOR_ACTION_KINDS = [
  'hide_chat_message',
  'hide_review',
  'suspend_kitchen',
  'lift_suspension',
  'close_report',
  'approve_kitchen',
  'ask_kitchen_changes',
  'refuse_kitchen',
  'refer_kitchen',
  'override_rule',
  'schedule_fee_change',
] as const;
export type OperatorActionKind = (typeof OPERATOR_ACTION_KINDS)[number];

/** One line of 'Recent actions': who, what, on what, when. */
export const OperatorActionEntry = z.object({
  id: z.string().uuid(),
  operatorEmail: z.string(),
  action: z.enum(OPERATOR_ACTION_KINDS),
  targetKind: ReportTargetKind.nullable(),
  targetId: z.string().uuid().nullable(),
  reportId: z.string().uuid().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type OperatorActionEntry = z.infer<typeof OperatorActionEntry>;

export const SuspendedKitchen = z.object({
  uid: z.string().uuid(),
  name: z.string(),
  suspendedAt: z.string(),
});
export type SuspendedKitchen = z.infer<typeof SuspendedKitchen>;

/** A kitchen whose place's rules ask for a permit, waiting for an operator's decision (or for the changes asked). */
export const KitchenAwaitingApproval = z.object({
  uid: z.string().uuid(),
  name: z.string(),
  ownerName: z.string(),
  address: z.string(),
  /** Its place as the geocoder named it (county, region, country), which chose the rules asking for a permit. */
  place: z.string(),
  state: z.enum(['awaiting-approval', 'changes-asked']),
  /** What the operator asked to change ('' while it awaits a first decision). */
  reason: z.string(),
  registeredAt: z.string(),
  documents: z.array(
    z.object({
      kind: z.enum(DOCUMENT_KINDS),
      number: z.string(),
      holder: z.string(),
      expiresOn: z.string(),
      /** The photo or PDF of the paper, when the cook attached one. */
      file: DocumentFile.nullable(),
    }),
  ),
});
export type KitchenAwaitingApproval = z.infer<typeof KitchenAwaitingApproval>;

/** How many food-safety complaints ('Made me ill') about one kitchen within how many days put it before an operator. */
export const REFERRAL_COMPLAINTS = 3;
export const REFERRAL_PERIOD_DAYS = 30;

/** A referral of a kitchen to the local health authority: who, when, and to whom (the action's note says so). */
export const HealthReferral = z.object({
  operatorEmail: z.string(),
  referredAt: z.string(),
  note: z.string(),
});
export type HealthReferral = z.infer<typeof HealthReferral>;

/**
 * A kitchen with REFERRAL_COMPLAINTS or more food-safety complaints within the last REFERRAL_PERIOD_DAYS: its
 * complaints' count and span, and its referral if one was made since the latest of them.
 */
export const KitchenToRefer = z.object({
  uid: z.string().uuid(),
  name: z.string(),
  complaints: z.number().int(),
  firstAt: z.string(),
  latestAt: z.string(),
  referral: HealthReferral.nullable(),
});
export type KitchenToRefer = z.infer<typeof KitchenToRefer>;

/** What 'Refer to the local health authority' answers: whether it recorded a referral now, and the referral. */
export const ReferralResult = z.object({ changed: z.boolean(), referral: HealthReferral });
export type ReferralResult = z.infer<typeof ReferralResult>;

/**
 * The operator's page: kitchens awaiting approval (oldest first), open reports (newest first), suspended kitchens,
 * recent actions (newest first).
 */
export const ModerationView = z.object({
  approvals: z.array(KitchenAwaitingApproval),
  /** Kitchens whose food-safety complaints ask for a referral to the local health authority, latest first. */
  referrals: z.array(KitchenToRefer),
  reports: z.array(OpenReport),
  suspendedKitchens: z.array(SuspendedKitchen),
  actions: z.array(OperatorActionEntry),
});
export type ModerationView = z.infer<typeof ModerationView>;

/** The body of every operator action: an optional note, kept with the action. */
export const OperatorActionInput = z
  .object({
    note: z
      .string({ error: () => t('Note must be text') })
      .trim()
      .max(REPORT_REASON_MAX, {
        error: () => t('Note must be at most {max} characters', { max: String(REPORT_REASON_MAX) }),
      })
      .refine((text) => !text.includes('\u0000'), { error: () => t('Note cannot contain NUL characters') })
      .optional(),
  })
  .default({});
export type OperatorActionInput = z.infer<typeof OperatorActionInput>;

export const LISTING_DECISIONS = ['approve', 'ask-changes', 'refuse'] as const;

/** An operator's decision on a kitchen awaiting approval: asking for changes or refusing needs a reason. */
export const ListingDecisionInput = z
  .object({
    decision: z.enum(LISTING_DECISIONS, { error: () => t('Choose approve, ask-changes or refuse') }),
    reason: z
      .string({ error: () => t('Reason must be text') })
      .trim()
      .max(REPORT_REASON_MAX, {
        error: () => t('Reason must be at most {max} characters', { max: String(REPORT_REASON_MAX) }),
      })
      .refine((text) => !text.includes('\u0000'), { error: () => t('Reason cannot contain NUL characters') })
      .default(''),
  })
  .refine((input) => input.decision === 'approve' || input.reason.length > 0, {
    path: ['reason'],
    error: () => t('Say what the cook must change, or why the kitchen is refused'),
  });
export type ListingDecisionInput = z.infer<typeof ListingDecisionInput>;

/** 409: a decision on a kitchen that is not waiting for one. */
export const NOT_AWAITING_APPROVAL = 'NOT_AWAITING_APPROVAL';

/** What an action answers: whether it changed anything (hiding what is hidden already changes nothing). */
export const OperatorActionResult = z.object({ changed: z.boolean() });
export type OperatorActionResult = z.infer<typeof OperatorActionResult>;

export const IdParams = z.object({ id: z.string().uuid({ error: () => t('id must be an id') }) });
export const KitchenUidParams = z.object({
  uid: z.string().uuid({ error: () => t('uid must be a kitchen id') }),
});

/** The error code of an order to a suspended kitchen (409). */
export const KITCHEN_SUSPENDED = 'KITCHEN_SUSPENDED';
