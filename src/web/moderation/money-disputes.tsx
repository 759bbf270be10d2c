import { Button, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatMoney } from '../../shared/money.js';
import type { MoneyOverview } from '../../shared/payments.js';
import type { DisputeEvidenceResult } from '../../shared/refunds.js';
import { api } from '../lib/api-client.js';
import { t, translator } from '../i18n.js';
import { moneyKey } from './use-money.js';

type Dispute = MoneyOverview['disputes'][number];

/**
 * A deadline is a moment (the provider's `evidence_details.due_by`): shown to the minute in the operator's own zone,
 * the zone named, so that an operator anywhere reads when they must act.
 */
const formatDeadline = (iso: string) =>
  translator()
    .dateFormat({
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    })
    .format(new Date(iso));

/** Where a dispute stands, as the operator reads it. */
function standing(d: Dispute): string {
  if (d.outcome === 'won') return t('Won');
  if (d.outcome === 'lost') return t('Lost');
  if (d.evidenceSubmitted) return t('Evidence submitted: the bank decides');
  return d.evidenceDueBy
    ? t('Evidence due by {date}', { date: formatDeadline(d.evidenceDueBy) })
    : t('Evidence needed');
}

/** 'Submit evidence': the order's dishes, times, delivery and messages sent to the provider for the bank. */
function SubmitEvidence({ dispute }: { dispute: Dispute }) {
  const queryClient = useQueryClient();
  const submit = useMutation({
    mutationFn: () =>
      api.post<DisputeEvidenceResult>(
        `/api/operator/orders/${encodeURIComponent(dispute.orderId)}/dispute/evidence`,
        {},
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moneyKey }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('Could not submit the evidence'),
        message: t(error.message),
      }),
  });
  return (
    <Button size="xs" variant="light" loading={submit.isPending} onClick={() => submit.mutate()}>
      {t('Submit evidence')}
    </Button>
  );
}

/** The Money tab's disputes: the latest, each with where it stands; an open one's evidence is one press away. */
export function MoneyDisputes({ view }: { view: MoneyOverview }) {
  const money = (minor: number) => formatMoney(minor, view.currency);
  return (
    <section aria-labelledby="money-disputes">
      <Title order={2} size="h3" id="money-disputes" mb="sm">
        {t('Disputes')}
      </Title>
      {view.disputes.length === 0 ? (
        <Text c="dimmed">{t('No disputes')}</Text>
      ) : (
        <Table aria-label={t('Disputes')} verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Kitchen and order')}</Table.Th>
              <Table.Th>{t('Amount')}</Table.Th>
              <Table.Th>{t('Where it stands')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.disputes.map((d) => (
              <Table.Tr key={`${d.orderId}-${d.at}`}>
                <Table.Td>
                  {d.kitchenName}
                  <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {d.orderId}
                  </Text>
                </Table.Td>
                <Table.Td fw={600}>
                  {money(d.amountCents)}
                  <Text size="xs" c="dimmed">
                    {t('fee {fee}', { fee: money(d.feeCents) })}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{standing(d)}</Text>
                  {d.outcome === null && !d.evidenceSubmitted ? <SubmitEvidence dispute={d} /> : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </section>
  );
}
