import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { formatCents } from '../../shared/money.js';
import type { CustomerOrder } from '../../shared/orders.js';
import { MAX_TIP_CENTS, MIN_TIP_CENTS, SUGGESTED_TIPS_AFTER, type TipStarted } from '../../shared/tips.js';
import { api, ApiError } from '../lib/api-client.js';
import { randomId } from '../cart/cart-storage.js';
import { useKitchenPayments } from '../payments/use-payments.js';
import { t } from '../i18n.js';
import { TipPicker } from './tip-picker.js';

/**
 * 'Tip the cook' on a delivered (or collected) order, for 48 hours, where its kitchen takes tips: a card payment of
 * its own on the provider's page. The tips given are listed.
 */
export function TipCook({ order }: { order: CustomerOrder }) {
  const payments = useKitchenPayments(order.kitchenUid ?? undefined);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState<number | null>(SUGGESTED_TIPS_AFTER[1]);
  const [error, setError] = useState<string>();
  // One key per amount asked: a double click opens one payment page.
  const key = useRef<{ amount: number; key: string } | undefined>(undefined);
  const start = useMutation({
    mutationFn: (body: { amountCents: number; requestKey: string }) =>
      api.post<TipStarted>(`/api/orders/${encodeURIComponent(order.id)}/tips`, body),
    onSuccess: (started) => {
      if (started.checkoutUrl) window.location.assign(started.checkoutUrl);
    },
    onError: (failed) =>
      setError(failed instanceof ApiError ? t(failed.message) : t('The tip was not sent. Please try again.')),
  });
  const paid = order.tips.filter((tip) => tip.state === 'paid');
  const until = order.problemReportUntil;
  const open48 = order.state === 'delivered' && !!until && Date.now() <= new Date(until).getTime();
  const offered = open48 && payments.data?.tips === true;
  if (paid.length === 0 && order.tipCents === 0 && !offered) return null;

  const send = () => {
    if (amount === null || amount < MIN_TIP_CENTS || amount > MAX_TIP_CENTS) {
      setError(
        t('A tip is from {min} to {max}', {
          min: formatCents(MIN_TIP_CENTS),
          max: formatCents(MAX_TIP_CENTS),
        }),
      );
      return;
    }
    if (key.current?.amount !== amount) key.current = { amount, key: randomId() };
    setError(undefined);
    start.mutate({ amountCents: amount, requestKey: key.current.key });
  };

  return (
    <Paper component="section" withBorder radius="md" p="lg" maw={560} aria-labelledby={`tip-${order.id}`}>
      <Title order={2} size="h4" id={`tip-${order.id}`} mb="sm">
        {t('Tip the cook')}
      </Title>
      <Stack gap="sm">
        {order.tipCents > 0 ? (
          <Text size="sm">
            {t('You tipped {amount} with your order.', { amount: formatCents(order.tipCents) })}
          </Text>
        ) : null}
        {paid.map((tip) => (
          <Text key={tip.id} size="sm" fw={600}>
            {t('You tipped {amount}. Thank you!', { amount: formatCents(tip.amountCents) })}
          </Text>
        ))}
        {offered && !open ? (
          <Group>
            <Button variant="light" onClick={() => setOpen(true)}>
              {paid.length ? t('Tip again') : t('Tip the cook')}
            </Button>
          </Group>
        ) : null}
        {offered && open ? (
          <>
            <TipPicker
              suggestions={SUGGESTED_TIPS_AFTER}
              value={amount}
              allowNone={false}
              onChange={(cents) => {
                setAmount(cents);
                setError(undefined);
              }}
              error={error}
            />
            {error ? (
              <Alert color="red" role="alert" title={t('The tip was not sent')}>
                {error}
              </Alert>
            ) : null}
            <Group>
              <Button onClick={send} loading={start.isPending}>
                {amount && amount >= MIN_TIP_CENTS
                  ? t('Pay {amount} tip', { amount: formatCents(amount) })
                  : t('Pay the tip')}
              </Button>
              <Button variant="subtle" onClick={() => setOpen(false)}>
                {t('Not now')}
              </Button>
            </Group>
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
