/**
 * The styles of the components that only pages and dialogs loaded on demand use: every such loader awaits this
 * before its own code, so a component never shows unstyled and these rules precede the page's own.
 */
export const loadLaterStyles = () => import('./later-styles.js');
