import { Checkbox, Group, NumberInput } from '@mantine/core';
import { useState } from 'react';
import { formatCents } from '../../shared/money.js';
import type { DishCount } from '../../shared/dish-count.js';
import type { groupLines } from '../../shared/orders.js';
import { t } from '../i18n.js';

type Line = ReturnType<typeof groupLines>[number];

/**
 * How many of each line of an order are chosen (a refund's, a problem report's): `initial` chosen at first. Gives
 * the counts, a setter, and the chosen lines as dishes.
 */
export function useDishCounts(lines: Line[], initial: (line: Line) => number = () => 0) {
  const [counts, setCounts] = useState<number[]>(() =>
    lines.map((line) => Math.min(line.quantity, initial(line))),
  );
  const setCount = (i: number, n: number) => setCounts((now) => now.map((c, j) => (j === i ? n : c)));
  const dishes: DishCount[] = lines.flatMap((line, i) =>
    (counts[i] ?? 0) > 0 ? [{ item: line.item, priceCents: line.priceCents, quantity: counts[i] ?? 0 }] : [],
  );
  return { counts, setCount, dishes };
}

/** Each line of the order: a checkbox with its price, and how many when it has more than one. */
export function DishCounts({
  lines,
  counts,
  setCount,
}: {
  lines: Line[];
  counts: number[];
  setCount: (i: number, n: number) => void;
}) {
  return lines.map((line, i) => (
    <Group key={`${line.item}:${line.priceCents}`} justify="space-between" wrap="nowrap">
      <Checkbox
        label={`${line.item} · ${formatCents(line.priceCents)}`}
        checked={(counts[i] ?? 0) > 0}
        onChange={(e) => setCount(i, e.currentTarget.checked ? 1 : 0)}
      />
      {line.quantity > 1 ? (
        <NumberInput
          aria-label={t('How many {dish}', { dish: line.item })}
          w={80}
          min={0}
          max={line.quantity}
          value={counts[i] ?? 0}
          onChange={(value) => setCount(i, Math.min(line.quantity, Math.max(0, Number(value) || 0)))}
        />
      ) : null}
    </Group>
  ));
}
