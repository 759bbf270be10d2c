import { Badge } from '@mantine/core';
import type { Availability } from '../../shared/opening-hours.js';

/** 'Open now' (green) or 'Closed' (grey) on a kitchen card. */
export function OpenBadge({ state }: { state: Availability }) {
  return (
    <Badge size="sm" variant="light" color={state.open ? 'green' : 'gray'}>
      {state.open ? 'Open now' : 'Closed'}
    </Badge>
  );
}
