import { z } from 'zod';

/** A required single-line text: trimmed, 1..max characters. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

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
