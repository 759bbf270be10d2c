import { Badge } from '@mantine/core';
import type { Availability } from '../../shared/opening-hours.js';
import { t } from '../i18n.js';

/** 'Open now' (green) or 'Closed' (grey) on a kitchen card. */
export function OpenBadge({ state }: { state: Availability }) {
  return (
    // Filled in dark shades: light badges' text is too faint for small type (axe: contrast 4.5:1). Never squeezed
    // by a long name beside it: the name gives way (a longer language's 'Open now' is whole).
    <Badge
      size="sm"
      variant="filled"
      tt="none"
      color={state.open ? '#1f6b32' : 'gray.7'}
      style={{ flexShrink: 0 }}
    >
      {state.open ? t('Open now') : t('Closed')}
    </Badge>
  );
}
