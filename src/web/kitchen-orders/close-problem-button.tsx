import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { KitchenOrder } from '../../shared/orders.js';
import type { CloseProblemInput, ProblemReport } from '../../shared/problem-reports.js';
import { api, ApiError } from '../lib/api-client.js';
import { t } from '../i18n.js';
import { allKitchenOrdersKey } from './use-kitchen-orders.js';

/** 'Close without refund' on an order whose customer reported a problem: the cook says why; the customer reads it. */
export function CloseProblemButton({ order, size = 'xs' }: { order: KitchenOrder; size?: 'xs' | 'md' }) {
  if (!order.problem || order.problem.resolvedAt) return null;
  return (
    <CloseProblem
      url={`/api/kitchen/orders/${encodeURIComponent(order.id)}/problem/close`}
      invalidate={allKitchenOrdersKey}
      who={order.customerEmail}
      size={size}
    />
  );
}

/** The button and its dialog: a reason, sent to `url`; `invalidate` is the list it changes. */
export function CloseProblem({
  url,
  invalidate,
  who,
  size = 'xs',
}: {
  url: string;
  invalidate: readonly unknown[];
  who: string;
  size?: 'xs' | 'md';
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const queryClient = useQueryClient();
  const close = useMutation({
    mutationFn: (body: CloseProblemInput) => api.post<ProblemReport>(url, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invalidate }),
  });
  const submit = async () => {
    if (!reason.trim()) return setError(t('Reason is required'));
    try {
      await close.mutateAsync({ reason: reason.trim() });
      notifications.show({ color: 'green', title: t('Report closed'), message: who });
      setOpen(false);
    } catch (failure) {
      const message = t((failure as Error).message);
      if (failure instanceof ApiError) setError(message);
      else notifications.show({ color: 'red', title: t('Could not close the report'), message });
    }
  };
  return (
    <>
      <Button size={size} variant="default" onClick={() => setOpen(true)}>
        {t('Close without refund')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('Close this report without a refund')}>
        {open ? (
          <Stack>
            <Textarea
              label={t('Why (the customer reads this)')}
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setError(undefined);
              }}
              error={error}
              maxLength={500}
              autosize
              minRows={2}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                {t('Back')}
              </Button>
              <Button onClick={() => void submit()} loading={close.isPending}>
                {t('Close the report')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
