// Words the first view shows about moderation, without the moderation schemas (in moderation.ts): no zod on the
// first view (issue 32).

/** The menu page's words for a kitchen an operator suspended. */
export const KITCHEN_UNAVAILABLE = 'This kitchen is unavailable right now.';
