import type { HeatCell } from '../../shared/insights.js';
import { hourName, weekdayName } from './insight-format.js';
import classes from './heat-map.module.css';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

/**
 * Orders by weekday (rows) and hour (columns), darker where more came: a picture only (its table says the same),
 * a grid of plain elements that fits a phone's width.
 */
export function HeatMap({ cells }: { cells: HeatCell[] }) {
  const orders = new Map(cells.map((c) => [`${c.weekday}-${c.hour}`, c.orders]));
  const most = Math.max(1, ...cells.map((c) => c.orders));
  return (
    <div className={classes.grid}>
      <span />
      {HOURS.map((hour) => (
        <span key={hour} className={classes.hour}>
          {hour % 6 === 0 ? hourName(hour).slice(0, 2) : ''}
        </span>
      ))}
      {WEEKDAYS.map((weekday) => (
        <div key={weekday} className={classes.row}>
          <span className={classes.day}>{weekdayName(weekday)}</span>
          {HOURS.map((hour) => {
            const count = orders.get(`${weekday}-${hour}`) ?? 0;
            return (
              <span
                key={hour}
                className={classes.cell}
                style={{ opacity: count === 0 ? 0.08 : 0.25 + (0.75 * count) / most }}
              />
            );
          })}
        </div>
      ))}
    </div>
  );
}
