import { Button, Group, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { CodeQuote } from '../../shared/promo-codes.js';
import { ApiError, api } from '../lib/api-client.js';
import { t } from '../i18n.js';

/**
 * 'Promotion code' with 'Apply': asks the server what the code takes off this cart (ADR 30). The order is priced
 * again when it is placed, so the quote is only shown; a refusal names its reason under the field.
 */
export function CodeField({
  kitchenUid,
  itemIds,
  applied,
  onApplied,
  error,
  onError,
}: {
  kitchenUid: string;
  itemIds: string[];
  applied: CodeQuote | null;
  onApplied: (quote: CodeQuote | null) => void;
  error?: string;
  onError: (message: string | undefined) => void;
}) {
  const [typed, setTyped] = useState('');
  const quote = useMutation({
    mutationFn: (code: string) => api.post<CodeQuote>('/api/orders/code', { code, kitchenUid, itemIds }),
    onSuccess: (answer) => {
      onApplied(answer);
      onError(undefined);
    },
    onError: (failure) => {
      onApplied(null);
      onError(
        failure instanceof ApiError
          ? t(failure.message)
          : t('The code could not be checked. Please try again.'),
      );
    },
  });
  const apply = () => {
    if (typed.trim().length === 0) return onError(t('Enter a code'));
    quote.mutate(typed.trim());
  };
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput
        label={t('Promotion code')}
        value={typed}
        onChange={(event) => {
          setTyped(event.currentTarget.value);
          if (applied) onApplied(null);
          onError(undefined);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply();
        }}
        error={error}
        autoCapitalize="characters"
        autoComplete="off"
        maxLength={40}
        style={{ flex: 1, minWidth: 0 }}
      />
      <Button variant="light" onClick={apply} loading={quote.isPending} mb={error ? 22 : 0}>
        {t('Apply')}
      </Button>
    </Group>
  );
}
