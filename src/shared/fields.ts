import { z } from 'zod';
import { t } from './i18n/translator.js';
import { isPublicHost } from './public-host.js';

// Control characters (NUL, tab, line breaks, …): PostgreSQL text cannot hold NUL, and a name, address or status is
// one line. Bidi embeddings, overrides and isolates can make a name read backwards ("gpj.exe" as "exe.jpg").
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_A_LINE = /[\u0000-\u001F\u007F\u202A-\u202E\u2066-\u2069]/;

/** Whether `value` is one line of plain text: no control characters (NUL included), no bidi overrides. */
export const isOneLine = (value: string): boolean => !FORBIDDEN_IN_A_LINE.test(value);

/**
 * `value` made one line of plain text (`isOneLine`), for a name we are given rather than one a person typed into a
 * form of ours (which refuses it): bidi embeddings, overrides and isolates dropped, control characters and line
 * breaks as spaces, runs of spaces as one, trimmed.
 */
export const toOneLine = (value: string): string =>
  value
    .replace(/[\u202A-\u202E\u2066-\u2069]/g, '')
    .replace(new RegExp(FORBIDDEN_IN_A_LINE.source, 'g'), ' ')
    .replace(/\s+/g, ' ')
    .trim();

// Fields' messages are made as a value is checked, in the current language (the browser's; on the server the error
// handler translates those without arguments). A `label` is itself a message, marked with msg() by the caller.

/**
 * The first and the last day a date we are sent may name. Every zone's calendar and `Intl` reach them (a day in
 * year 10000 has no YYYY-MM-DD, and the day after 9999-12-31 is one), and nothing of a marketplace is older or
 * further ahead.
 */
export const FIRST_DAY = '2000-01-01';
export const LAST_DAY = '2100-12-31';
const FIRST_INSTANT = Date.parse(`${FIRST_DAY}T00:00:00Z`);
const AFTER_LAST_INSTANT = Date.parse(`${LAST_DAY}T00:00:00Z`) + 86_400_000;

/** The refusal of a day or a time outside `FIRST_DAY`..`LAST_DAY`, naming its field. */
export const outsideCalendar = (name: string) =>
  t('{name} must be between {first} and {last}', { name, first: FIRST_DAY, last: LAST_DAY });

/** A calendar day written YYYY-MM-DD, from `FIRST_DAY` to `LAST_DAY`; errors name the parameter. */
export const calendarDay = (name: string) =>
  z
    .string({ error: () => t('{name} must be a day written YYYY-MM-DD', { name }) })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: () => t('{name} must be a day written YYYY-MM-DD', { name }) })
    .refine(
      (text) => {
        const at = new Date(`${text}T00:00:00Z`);
        return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(text);
      },
      { error: () => t('{name} is not a day of the calendar', { name }), abort: true },
    )
    .refine((text) => text >= FIRST_DAY && text <= LAST_DAY, { error: () => outsideCalendar(name) });

/** Whether an ISO 8601 date and time (`Date.parse` reads it) falls from `FIRST_DAY` to `LAST_DAY`, in UTC. */
export const withinCalendar = (iso: string): boolean => {
  const at = Date.parse(iso);
  return at >= FIRST_INSTANT && at < AFTER_LAST_INSTANT;
};

/** A required single-line text: trimmed, 1..max characters, no control or bidi-override characters. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: () => t('{label} is required', { label: t(label) }) })
    .trim()
    .min(1, { error: () => t('{label} is required', { label: t(label) }) })
    .max(max, {
      error: () => t('{label} must be at most {max} characters', { label: t(label), max: String(max) }),
    })
    .refine(isOneLine, {
      error: () => t('{label} must be one line of text without control characters', { label: t(label) }),
    });

/** An optional single-line text: trimmed, at most max characters; empty (or left out) is none (null). */
export const optionalText = (label: string, max: number) =>
  z
    .string({ error: () => t('{label} must be text', { label: t(label) }) })
    .trim()
    .max(max, {
      error: () => t('{label} must be at most {max} characters', { label: t(label), max: String(max) }),
    })
    .refine(isOneLine, {
      error: () => t('{label} must be one line of text without control characters', { label: t(label) }),
    })
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

/** Why a picture link is refused, or undefined when it is an http(s) link to a public host. */
export function pictureLinkProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a full http(s) link';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) link';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (!isPublicHost(url.hostname)) return 'must point to a public website';
  return undefined;
}

/**
 * A picture link: an absolute http(s) URL to a public host. Relative links (which would make every visitor's
 * browser call our own routes), private and loopback addresses, javascript: and data: are refused. The server
 * also refuses links to its own origin (it alone knows it).
 */
export const imageLink = (label: string) =>
  requiredText(label, 2000).superRefine((value, ctx) => {
    const problem = pictureLinkProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: pictureLinkMessage(problem, label) });
  });

/** `label` and what `pictureLinkProblem` found, as one sentence in the current language. */
function pictureLinkMessage(problem: string, label: string): string {
  const values = { label: t(label) };
  switch (problem) {
    case 'must be a full http(s) link':
      return t('{label} must be a full http(s) link', values);
    case 'must be an http(s) link':
      return t('{label} must be an http(s) link', values);
    case 'must not contain a user name or password':
      return t('{label} must not contain a user name or password', values);
    case 'must point to a public website':
      return t('{label} must point to a public website', values);
    default:
      return `${label} ${problem}`;
  }
}

// The same, but line breaks (\n) are text here: a story or a review may have paragraphs.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_TEXT = /[\u0000-\u0009\u000B-\u001F\u007F\u202A-\u202E\u2066-\u2069]/;

/**
 * An optional multi-line text: trimmed, at most `max` characters ('' when left out), lines separated by `\n`; no
 * other control characters, no bidi overrides.
 */
export const multilineText = (label: string, max: number) =>
  z
    .string({ error: () => t('{label} must be text', { label: t(label) }) })
    .trim()
    .max(max, {
      error: () => t('{label} must be at most {max} characters', { label: t(label), max: String(max) }),
    })
    .refine((value) => !FORBIDDEN_IN_TEXT.test(value), {
      error: () =>
        t('{label} must be text without control characters (line breaks are fine)', { label: t(label) }),
    });
