import { Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { Kitchen } from '../../shared/kitchens.js';
import { ApiError } from '../lib/api-client.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { t } from '../i18n.js';
import { KitchenInsightsCharts } from './kitchen-insights-charts.js';
import { PeriodPicker } from './period-picker.js';
import { useInsights, type PeriodChoice } from './use-insights.js';

/**
 * 'Insights': the cook's business at a glance over a period, in their kitchen's time zone: sales beside the period
 * before, the dishes that sell, when orders come, customers, reliability.
 */
export function KitchenInsights({ kitchen }: { kitchen: Kitchen }) {
  const [choice, setChoice] = useState<PeriodChoice>({ period: '4weeks' });
  const insights = useInsights(kitchen.uid, choice);
  const data = insights.data;
  const refused = insights.error instanceof ApiError && insights.error.status === 400;
  return (
    <Stack gap="lg">
      <Title order={1}>{t('Insights')}</Title>
      <PeriodPicker choice={choice} onChange={setChoice} shown={data?.range} error={insights.error} />
      {insights.isPending ? (
        <Spinner label={t('Loading your insights')} />
      ) : insights.isError && !refused ? (
        <LoadFailed
          title={t('Could not load your insights')}
          error={insights.error}
          retry={() => void insights.refetch()}
        />
      ) : !data ? null : (
        <>
          <Text size="sm" c="dimmed">
            {t('From {from} to {to}, days and hours of your kitchen ({timeZone}).', {
              from: data.range.from,
              to: data.range.to,
              timeZone: data.timeZone,
            })}
          </Text>
          {data.totals.orders === 0 && data.totals.previousOrders === 0 ? (
            <Paper withBorder radius="md" p="lg">
              <Text fw={600}>{t('No orders in this period')}</Text>
            </Paper>
          ) : null}
          <KitchenInsightsCharts insights={data} choice={choice} />
        </>
      )}
    </Stack>
  );
}
