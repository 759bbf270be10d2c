import { requiredText } from './fields.js';
import { z } from 'zod';
import { msg, t } from './i18n/translator.js';
import { StoredImage } from './images.js';
import { DishCount } from './dish-count.js';
import { REFUND_AS } from './credit.js';

/** The dishes a report is about, and how many of each (as a refund names them). */
export const ProblemDish = DishCount;
export type ProblemDish = DishCount;

/** Why a customer reports a problem with a delivered (or collected) order. */
export const PROBLEM_REASONS = ['missing', 'wrong_dish', 'cold_or_spilled', 'made_ill', 'other'] as const;
export type ProblemReason = (typeof PROBLEM_REASONS)[number];

/** Each reason as the customer picks it and the cook reads it: a message, t() it. */
export const PROBLEM_REASON_NAMES: Record<ProblemReason, string> = {
  missing: msg('Missing'),
  wrong_dish: msg('Wrong dish'),
  cold_or_spilled: msg('Arrived cold or spilled'),
  made_ill: msg('Made me ill'),
  other: msg('Other'),
};

/** For how long after its delivery (or collection) an order's customer may report a problem with it. */
export const PROBLEM_REPORT_WINDOW_MS = 48 * 60 * 60 * 1000;
/** The most photos a report holds. */
export const MAX_PROBLEM_PHOTOS = 3;
/** The most characters of what the customer writes. */
export const PROBLEM_DETAILS_MAX = 1000;

/** The order is not one a problem can be reported on now: not delivered, or delivered more than 48 hours ago (409). */
export const PROBLEM_REPORT_CLOSED = 'PROBLEM_REPORT_CLOSED';
/** The order already has an open report (409): one at a time. */
export const PROBLEM_ALREADY_REPORTED = 'PROBLEM_ALREADY_REPORTED';

/** What the customer writes: several lines are fine, NUL and bidi overrides are not. */
const details = z
  .string({ error: () => t('Details must be text') })
  .trim()
  .refine((text) => [...text].length <= PROBLEM_DETAILS_MAX, {
    error: () => t('Details must be at most {max} characters', { max: String(PROBLEM_DETAILS_MAX) }),
  })
  .refine(
    // eslint-disable-next-line no-control-regex
    (text) => !/[\u0000\u202A-\u202E\u2066-\u2069]/.test(text),
    { error: () => t('Details cannot contain NUL or bidi controls') },
  );

/**
 * `POST /api/orders/:id/problem`: the dishes concerned (as the order has them, how many of each), why, the
 * customer's words, and up to 3 photos they uploaded (`POST /api/customer/images`).
 */
export const ProblemReportInput = z.object({
  reason: z.enum(PROBLEM_REASONS, {
    error: () => t('Reason must be one of {reasons}', { reasons: PROBLEM_REASONS.join(', ') }),
  }),
  dishes: z
    .array(ProblemDish, { error: () => t('Choose at least one dish') })
    .min(1, { error: () => t('Choose at least one dish') })
    .max(50),
  details: details.optional().default(''),
  photoIds: z
    .array(z.string().uuid({ error: () => t('Upload a photo first') }), {
      error: () => t('Photos must be a list of uploaded photos'),
    })
    .max(MAX_PROBLEM_PHOTOS, {
      error: () => t('At most {max} photos', { max: String(MAX_PROBLEM_PHOTOS) }),
    })
    .optional()
    .default([]),
  /** The money back to the card (the default), or as store credit that spends on any kitchen's order (ADR 29). */
  refundAs: z
    .enum(REFUND_AS, { error: () => t("Refund as must be 'card' or 'credit'") })
    .optional()
    .default('card'),
});
export type ProblemReportInput = z.input<typeof ProblemReportInput>;

/** A problem reported with an order, as its customer, its kitchen and operators see it. */
export const ProblemReport = z.object({
  id: z.string().uuid(),
  reason: z.enum(PROBLEM_REASONS),
  dishes: z.array(ProblemDish),
  details: z.string(),
  /** The photos, as stored (served at `/images/{id}-{width}.webp`). */
  photos: z.array(StoredImage),
  createdAt: z.string(),
  /** When a refund answered it, or it was closed without one (null while open). */
  resolvedAt: z.string().nullable(),
  /** Closed without a refund: by whom, and the reason its customer reads (null otherwise). */
  closedBy: z.enum(['kitchen', 'operator']).nullable(),
  closedReason: z.string().nullable(),
  /** How the customer wants the money back: a refund answering the report is given so. */
  refundAs: z.enum(REFUND_AS),
});
export type ProblemReport = z.infer<typeof ProblemReport>;

/** 'Close without refund': the reason the customer reads (required). */
export const CloseProblemInput = z.object({ reason: requiredText(msg('Reason'), 500) });
export type CloseProblemInput = z.infer<typeof CloseProblemInput>;

/** An open report on the operators' list: the report, its order and kitchen. */
export const OperatorProblemReport = ProblemReport.extend({
  orderId: z.string().uuid(),
  kitchenName: z.string(),
  totalCents: z.number().int(),
});
export type OperatorProblemReport = z.infer<typeof OperatorProblemReport>;
export const OperatorProblemReportList = z.array(OperatorProblemReport);

/** The reason's words, in the reader's language. */
export const problemReasonName = (reason: ProblemReason) => t(PROBLEM_REASON_NAMES[reason]);
