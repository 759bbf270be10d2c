import { TextInput } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { FIRST_DAY, LAST_DAY } from '../../shared/fields.js';
import { t } from '../i18n.js';

type Side = 'from' | 'to';

/**
 * 'From' and 'To' as date inputs (the kitchen's calendar days, within the days the API takes), each showing the
 * server's refusal when it names that side (`refused`: a 400 answer's field and message).
 */
export function DayRangeInputs({
  from,
  to,
  onPick,
  refused,
}: {
  from: string | undefined;
  to: string | undefined;
  onPick: (side: Side) => (event: ChangeEvent<HTMLInputElement>) => void;
  refused: { field?: string | undefined; message: string } | undefined;
}) {
  const input = (side: Side, label: string, value: string | undefined) => (
    <TextInput
      type="date"
      label={label}
      value={value ?? ''}
      onChange={onPick(side)}
      min={FIRST_DAY}
      max={LAST_DAY}
      error={refused?.field === side ? refused.message : undefined}
      w={160}
    />
  );
  return (
    <>
      {input('from', t('From'), from)}
      {input('to', t('To'), to)}
    </>
  );
}
