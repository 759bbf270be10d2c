import { Group, SegmentedControl } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { DayRangeInputs } from '../lib/day-range-inputs.js';
import type { InsightPeriod, InsightsRange } from '../../shared/insights.js';
import { ApiError } from '../lib/api-client.js';
import { msg, t } from '../i18n.js';
import type { PeriodChoice } from './use-insights.js';

const PERIODS: { value: InsightPeriod; label: string }[] = [
  { value: 'week', label: msg('This week') },
  { value: '4weeks', label: msg('Last 4 weeks') },
  { value: '12months', label: msg('Last 12 months') },
  { value: 'custom', label: msg('Custom') },
];

/** The period's choice: this week, the last 4 weeks or 12 months, or days of one's own. */
export function PeriodPicker({
  choice,
  onChange,
  shown,
  error,
}: {
  choice: PeriodChoice;
  onChange: (choice: PeriodChoice) => void;
  /** The days the last answer covered, to start custom days from. */
  shown?: InsightsRange | undefined;
  error?: unknown;
}) {
  const refused = error instanceof ApiError && error.status === 400 ? error : undefined;
  const pick = (side: 'from' | 'to') => (event: ChangeEvent<HTMLInputElement>) =>
    onChange({ ...choice, [side]: event.currentTarget.value || undefined });
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <SegmentedControl
        aria-label={t('Period')}
        value={choice.period}
        onChange={(value) =>
          onChange(
            value === 'custom'
              ? { period: 'custom', from: choice.from ?? shown?.from, to: choice.to ?? shown?.to }
              : { period: value as InsightPeriod },
          )
        }
        data={PERIODS.map((p) => ({ value: p.value, label: t(p.label) }))}
        styles={{ root: { flexWrap: 'wrap' } }}
      />
      {choice.period === 'custom' ? (
        <DayRangeInputs from={choice.from} to={choice.to} onPick={pick} refused={refused} />
      ) : null}
    </Group>
  );
}
