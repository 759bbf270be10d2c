// Words the first view shows about moderation, without the moderation schemas (in moderation.ts): no zod on the
// first view (issue 32).
import { msg } from './i18n/translator.js';

/** The menu page's words for a kitchen an operator suspended. */
export const KITCHEN_UNAVAILABLE = msg('This kitchen is unavailable right now.');
