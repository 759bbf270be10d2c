import { Button, Checkbox, Group, Modal, Paper, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatCents } from '../../shared/money.js';
import type { OperatorProblemReport } from '../../shared/problem-reports.js';
import type { OperatorRefundInput, OrderRefund, RefundPayer } from '../../shared/refunds.js';
import { api, ApiError } from '../lib/api-client.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { ProblemSummary } from '../orders/report-problem.js';
import { CloseProblem } from '../kitchen-orders/close-problem-button.js';
import { t, translator } from '../i18n.js';

export const problemsKey = ['operator', 'problem-reports'] as const;

const formatWhen = (iso: string) =>
  translator().dateFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** What the dishes a report names cost, as the order has them. */
const reportedCents = (report: OperatorProblemReport) =>
  report.dishes.reduce((sum, d) => sum + d.priceCents * d.quantity, 0);

/** An operator's decision on a report: the reported dishes refunded, choosing who pays. */
function DecideForm({ report, onDone }: { report: OperatorProblemReport; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [whoPays, setWhoPays] = useState<RefundPayer>('kitchen');
  const [feeBack, setFeeBack] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [key] = useState(() => crypto.randomUUID());
  const refund = useMutation({
    mutationFn: (body: OperatorRefundInput) =>
      api.post<OrderRefund>(`/api/operator/orders/${encodeURIComponent(report.orderId)}/refunds`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: problemsKey }),
  });
  const amount = formatCents(reportedCents(report));
  const submit = async () => {
    try {
      await refund.mutateAsync({
        key,
        dishes: report.dishes,
        whoPays,
        refundPlatformFee: whoPays === 'kitchen' ? true : feeBack,
        reason: reason.trim() || null,
      });
      notifications.show({
        color: 'green',
        title: t('Refund of {amount} sent', { amount }),
        message: report.kitchenName,
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
      <ProblemSummary report={report} />
      <Radio.Group label={t('Who pays')} value={whoPays} onChange={(v) => setWhoPays(v as RefundPayer)}>
        <Stack gap={6} mt={4}>
          <Radio value="kitchen" label={t('The kitchen (its payout is reduced)')} />
          <Radio value="platform" label={t('The platform (the kitchen keeps its payout)')} />
        </Stack>
      </Radio.Group>
      {whoPays === 'platform' ? (
        <Checkbox
          label={t("Also give the kitchen the platform's fee on these dishes")}
          checked={feeBack}
          onChange={(e) => setFeeBack(e.currentTarget.checked)}
        />
      ) : null}
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
        <Button onClick={() => void submit()} loading={refund.isPending}>
          {t('Refund {amount}', { amount })}
        </Button>
      </Group>
    </Stack>
  );
}

function ProblemItem({ report }: { report: OperatorProblemReport }) {
  const [open, setOpen] = useState(false);
  return (
    <Paper
      component="li"
      withBorder
      p="md"
      aria-label={t('Problem with an order from {kitchen}', { kitchen: report.kitchenName })}
    >
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={700}>{report.kitchenName}</Text>
          <Text size="sm" c="dimmed">
            <time dateTime={report.createdAt}>{formatWhen(report.createdAt)}</time>
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t('Order {id} · total {total}', { id: report.orderId, total: formatCents(report.totalCents) })}
        </Text>
        <ProblemSummary report={report} />
        <Group>
          <Button size="xs" variant="light" onClick={() => setOpen(true)}>
            {t('Decide')}
          </Button>
          <CloseProblem
            url={`/api/operator/orders/${encodeURIComponent(report.orderId)}/problem/close`}
            invalidate={problemsKey}
            who={report.kitchenName}
          />
        </Group>
      </Stack>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('Refund the reported dishes')}>
        {open ? <DecideForm report={report} onDone={() => setOpen(false)} /> : null}
      </Modal>
    </Paper>
  );
}

/** The operator's 'Problems' tab: customers' open reports of problems with delivered orders. */
export function ProblemsView() {
  const problems = useQuery({
    queryKey: problemsKey,
    queryFn: () => api.get<OperatorProblemReport[]>('/api/operator/problem-reports'),
    refetchOnMount: 'always',
  });
  if (problems.isPending) return <Spinner label={t('Loading the problem reports')} />;
  if (problems.isError)
    return (
      <LoadFailed
        title={t('Could not load the problem reports')}
        error={problems.error}
        retry={() => void problems.refetch()}
      />
    );
  return (
    <section aria-labelledby="open-problems">
      <Title order={2} size="h3" id="open-problems" mb="sm">
        {t('Problems with orders')}
      </Title>
      {problems.data.length === 0 ? (
        <Text c="dimmed">{t('No open problem reports.')}</Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }}>
          {problems.data.map((report) => (
            <ProblemItem key={report.id} report={report} />
          ))}
        </Stack>
      )}
    </section>
  );
}
