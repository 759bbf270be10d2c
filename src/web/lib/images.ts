/** Shown where a cook's picture link is broken. */
export const FALLBACK_IMAGE = '/demo/fallback.svg';
/** Shown where a chat sender has no picture, or it fails to load. */
export const DEFAULT_AVATAR = '/demo/avatar.svg';
