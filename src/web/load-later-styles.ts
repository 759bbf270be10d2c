import { messagesReady } from './i18n.js';

/**
 * What the pages and dialogs loaded on demand need before they show: the styles of the components only they use
 * (so a component never shows unstyled, and these rules precede the page's own), and the rest of the language's
 * messages (a server-rendered page came with only those it used). Every such loader awaits this.
 */
export const loadLaterStyles = async () => {
  await Promise.all([import('./later-styles.js'), messagesReady()]);
};
