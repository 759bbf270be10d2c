import { Box, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState, type ChangeEvent, type ReactNode } from 'react';
import { DayRangeInputs } from '../lib/day-range-inputs.js';
import type { Kitchen } from '../../shared/kitchens.js';
import { ApiError } from '../lib/api-client.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { MonthTotalsTable, PaidOrdersList, PaidOrdersTable } from './earnings-tables.js';
import { earningsCsvUrl, useEarnings, type EarningsRange } from './use-earnings.js';
import { t, translator, tx } from '../i18n.js';

/**
 * 'Earnings': the cook's paid orders (a card order once accepted, a cash order once delivered) with the delivery
 * fee, the platform's fee, refunds and what the cook keeps, totalled per day and month of the kitchen's calendar;
 * over the last 12 months, or the days chosen; and the same as a CSV file.
 */
export function KitchenEarnings({ kitchen }: { kitchen: Kitchen }) {
  const [range, setRange] = useState<EarningsRange>({});
  const earnings = useEarnings(kitchen.uid, range);
  const data = earnings.data;
  const refused =
    earnings.error instanceof ApiError && earnings.error.status === 400 ? earnings.error : undefined;
  const pick = (side: keyof EarningsRange) => (event: ChangeEvent<HTMLInputElement>) =>
    setRange({ ...range, [side]: event.currentTarget.value || undefined });
  const shown = { from: range.from ?? data?.from, to: range.to ?? data?.to };
  const total = data?.months.reduce((sum, month) => sum + month.netCents, 0) ?? 0;

  return (
    <Stack gap="lg">
      <Title order={1}>{t('Earnings')}</Title>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <DayRangeInputs from={shown.from} to={shown.to} onPick={pick} refused={refused} />
        {data && data.lines.length > 0 ? (
          <Button
            component="a"
            variant="default"
            href={earningsCsvUrl({ from: data.from, to: data.to })}
            download
          >
            {t('Download CSV')}
          </Button>
        ) : null}
      </Group>
      {earnings.isPending ? (
        <Spinner label={t('Loading your earnings')} />
      ) : earnings.isError && !refused ? (
        <LoadFailed
          title={t('Could not load your earnings')}
          error={earnings.error}
          retry={() => void earnings.refetch()}
        />
      ) : !data ? null : data.lines.length === 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Text fw={600}>{t('No paid orders yet')}</Text>
          <Text c="dimmed" size="sm">
            {t('A card order shows here once you accept it, a cash order once it is delivered.')}
          </Text>
        </Paper>
      ) : (
        <>
          <Text>
            {tx(
              '{count, plural, one {# paid order} other {# paid orders}}: you earned <b>{total}</b>. Days and times are your kitchen’s ({timeZone}).',
              {
                count: data.lines.length,
                total: translator().money(total, data.currency),
                timeZone: data.timeZone,
                b: (chunks) => <b>{chunks as ReactNode}</b>,
              },
            )}
          </Text>
          <section aria-labelledby="months-heading">
            <Title order={2} size="h3" id="months-heading" mb="xs">
              {t('Per month')}
            </Title>
            <MonthTotalsTable months={data.months} currency={data.currency} />
          </section>
          <section aria-labelledby="orders-heading">
            <Title order={2} size="h3" id="orders-heading" mb="xs">
              {t('Paid orders, per day')}
            </Title>
            <Box visibleFrom="sm">
              <PaidOrdersTable earnings={data} />
            </Box>
            <Box hiddenFrom="sm">
              <PaidOrdersList earnings={data} />
            </Box>
          </section>
        </>
      )}
    </Stack>
  );
}
