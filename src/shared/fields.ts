import { z } from 'zod';

// NUL and other control characters: PostgreSQL text cannot hold NUL, and none belongs in a name or address.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A required single-line text: trimmed, 1..max characters, no control characters. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => !CONTROL_CHARACTERS.test(value), `${label} must not contain control characters`);

/**
 * An image link: an absolute http(s) URL, or a path on our own site (the shipped demo pictures).
 * Anything else (javascript:, data:, protocol-relative) is refused.
 */
export const imageLink = (label: string) =>
  requiredText(label, 2000).refine((value) => {
    if (/^\/(?!\/)/.test(value)) return !value.includes('\\');
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, `${label} must be an http(s) link`);
