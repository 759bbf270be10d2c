import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatCents } from '../../shared/money.js';
import { groupLines, type KitchenOrder } from '../../shared/orders.js';
import { PROBLEM_REASON_NAMES } from '../../shared/problem-reports.js';
import type { KitchenRefundInput, OrderRefund } from '../../shared/refunds.js';
import { api, ApiError } from '../lib/api-client.js';
import { t } from '../i18n.js';
import { allKitchenOrdersKey } from './use-kitchen-orders.js';
import { DishCounts, useDishCounts } from '../orders/dish-counts.js';

/** Whether the cook may give back a part of this order: delivered, paid by card, not refunded in full. */
const refundable = (order: KitchenOrder) =>
  order.state === 'delivered' && order.payment.method === 'card' && order.payment.state === 'captured';

function useRefund(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: KitchenRefundInput) =>
      api.post<OrderRefund>(`/api/kitchen/orders/${encodeURIComponent(orderId)}/refunds`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: allKitchenOrdersKey }),
  });
}

/** The dishes of the order, with how many of each to give back (0: none). */
function RefundForm({ order, onDone }: { order: KitchenOrder; onDone: () => void }) {
  const lines = groupLines(order.items);
  // The dishes of the customer's open problem report, if any, are chosen already.
  const reported = order.problem && !order.problem.resolvedAt ? order.problem : null;
  const { counts, setCount, dishes } = useDishCounts(
    lines,
    (line) =>
      reported?.dishes.find((d) => d.item === line.item && d.priceCents === line.priceCents)?.quantity ?? 0,
  );
  const [reason, setReason] = useState(() => (reported ? t(PROBLEM_REASON_NAMES[reported.reason]) : ''));
  const [error, setError] = useState<string>();
  // One key per opening of the form: a double click or a retry gives the same refund.
  const [key] = useState(() => crypto.randomUUID());
  const refund = useRefund(order.id);
  const amount = lines.reduce((sum, line, i) => sum + line.priceCents * (counts[i] ?? 0), 0);
  const submit = async () => {
    if (dishes.length === 0) return setError(t('Choose at least one dish'));
    try {
      const done = await refund.mutateAsync({ key, dishes, reason: reason.trim() || null });
      notifications.show({
        color: 'green',
        title: t('Refund of {amount} sent', { amount: formatCents(done.amountCents) }),
        message: order.customerEmail,
      });
      onDone();
    } catch (failure) {
      const message = t((failure as Error).message);
      if (failure instanceof ApiError) setError(message);
      else notifications.show({ color: 'red', title: t('Could not refund'), message });
    }
  };
  return (
    <Stack>
      <Text size="sm">{t('Choose what to give back. The refund comes out of your earnings.')}</Text>
      <DishCounts lines={lines} counts={counts} setCount={setCount} />
      <TextInput
        label={t('Reason')}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        maxLength={300}
      />
      {error ? (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button onClick={() => void submit()} loading={refund.isPending} disabled={amount === 0}>
          {amount > 0 ? t('Refund {amount}', { amount: formatCents(amount) }) : t('Refund dishes')}
        </Button>
      </Group>
    </Stack>
  );
}

/** 'Refund' on a delivered card order: the cook gives back some of its dishes (they pay it). */
export function RefundButton({ order, size = 'xs' }: { order: KitchenOrder; size?: 'xs' | 'md' }) {
  const [open, setOpen] = useState(false);
  if (!refundable(order)) return null;
  return (
    <>
      <Button size={size} variant="light" onClick={() => setOpen(true)}>
        {t('Refund dishes')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('Refund part of this order')}>
        {open ? <RefundForm order={order} onDone={() => setOpen(false)} /> : null}
      </Modal>
    </>
  );
}
