import { Radio, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { formatCents, parsePriceToCents } from '../../shared/money.js';
import { t } from '../i18n.js';

const OTHER = 'other';

/**
 * 'Tip for the cook': no tip (where `allowNone`), one of the suggested amounts, or another amount typed in. Tells
 * its parent the amount in minor units, or null while the typed amount is not one.
 */
export function TipPicker({
  suggestions,
  value,
  onChange,
  allowNone = true,
  error,
}: {
  suggestions: readonly number[];
  value: number | null;
  onChange: (cents: number | null) => void;
  allowNone?: boolean;
  error?: string | undefined;
}) {
  const [choice, setChoice] = useState<string>(
    value === null ? OTHER : value === 0 && allowNone ? '0' : String(value),
  );
  const [other, setOther] = useState('');
  const choose = (next: string) => {
    setChoice(next);
    onChange(next === OTHER ? parsePriceToCents(other) : Number(next));
  };
  return (
    <Stack gap={6}>
      <Radio.Group label={t('Tip for the cook')} value={choice} onChange={choose}>
        <Stack gap={6} mt={6}>
          {allowNone ? <Radio value="0" label={t('No tip')} /> : null}
          {suggestions.map((cents) => (
            <Radio key={cents} value={String(cents)} label={formatCents(cents)} />
          ))}
          <Radio value={OTHER} label={t('Other amount')} />
        </Stack>
      </Radio.Group>
      {choice === OTHER ? (
        <TextInput
          label={t('Tip amount')}
          inputMode="decimal"
          value={other}
          error={error}
          onChange={(event) => {
            const text = event.currentTarget.value;
            setOther(text);
            onChange(parsePriceToCents(text));
          }}
          maw={200}
        />
      ) : error ? (
        <Text role="alert" c="red.8" size="sm">
          {error}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed">
        {t('Tips go to the cook whole: the marketplace takes no fee on them.')}
      </Text>
    </Stack>
  );
}
