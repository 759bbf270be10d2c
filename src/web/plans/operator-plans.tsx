import { Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { OperatorPlacements, PlacementRow } from '../../shared/plans.js';
import { api } from '../lib/api-client.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { t, translator } from '../i18n.js';

const when = (iso: string) =>
  translator()
    .dateFormat({ weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' })
    .format(new Date(iso));

function Rows({ rows, caption, failed }: { rows: PlacementRow[]; caption: string; failed: boolean }) {
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('Kitchen')}</Table.Th>
            <Table.Th scope="col">{t('Slot')}</Table.Th>
            <Table.Th scope="col">{t('Cut-off')}</Table.Th>
            <Table.Th scope="col">{failed ? t('Why') : t('State')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={`${row.planId} ${row.week}`}>
              <Table.Td>{row.kitchenName}</Table.Td>
              <Table.Td>{when(row.slotStart)}</Table.Td>
              <Table.Td>{when(row.cutoff)}</Table.Td>
              <Table.Td>{failed ? row.reason : row.overdue ? t('Overdue') : t('Planned')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The operator's 'Plans' tab: the weekly plans' placements of the next 24 hours, and the weeks that failed. */
export function OperatorPlans() {
  const view = useQuery({
    queryKey: ['operator', 'plans'],
    queryFn: () => api.get<OperatorPlacements>('/api/operator/plans'),
  });
  if (view.isPending) return <Spinner label={t('Loading the plans')} />;
  if (view.isError)
    return (
      <LoadFailed
        title={t('Could not load the plans')}
        error={view.error}
        retry={() => void view.refetch()}
      />
    );
  return (
    <Stack gap="lg">
      <section aria-labelledby="placements-due">
        <Title order={2} size="h3" id="placements-due" mb="sm">
          {t('Placements in the next 24 hours')}
        </Title>
        {view.data.due.length ? (
          <Rows rows={view.data.due} caption={t('Weeks to place, by cut-off')} failed={false} />
        ) : (
          <Text>{t('None.')}</Text>
        )}
      </section>
      <section aria-labelledby="placements-failed">
        <Title order={2} size="h3" id="placements-failed" mb="sm">
          {t('Failed in the last 7 days')}
        </Title>
        {view.data.failed.length ? (
          <Rows rows={view.data.failed} caption={t('Weeks not placed, newest first')} failed />
        ) : (
          <Text>{t('None.')}</Text>
        )}
      </section>
    </Stack>
  );
}
