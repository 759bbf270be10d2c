import type { Availability } from '../../shared/opening-hours.js';
import { t } from '../i18n.js';
import classes from './open-badge.module.css';

/** 'Open now' (green) or 'Closed' (grey) on a kitchen card. */
export function OpenBadge({ state }: { state: Availability }) {
  return (
    <div className={`${classes.badge} ${state.open ? classes.open : classes.closed}`}>
      <span className={classes.label}>{state.open ? t('Open now') : t('Closed')}</span>
    </div>
  );
}
