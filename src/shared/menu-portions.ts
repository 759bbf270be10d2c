// What a dish says about its portions, without the menu's schemas (in menu.ts): the first view needs it without
// zod (issue 32).
import { translator, type Translator } from './i18n/translator.js';
import type { MenuItem } from './menu.js';

/** 'Only 3 left' from this many down. */
export const FEW_PORTIONS_LEFT = 5;

/** What a dish shows about how many are left: 'Sold out', 'Only 3 left', or nothing. */
export function portionsNote(
  item: Pick<MenuItem, 'soldOut' | 'portionsLeft'>,
  tr: Translator = translator(),
): string | undefined {
  if (item.soldOut || item.portionsLeft === 0) return tr.t('Sold out');
  if (item.portionsLeft !== null && item.portionsLeft <= FEW_PORTIONS_LEFT)
    return tr.t('Only {count} left', { count: item.portionsLeft });
  return undefined;
}
