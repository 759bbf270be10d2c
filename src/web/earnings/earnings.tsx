import { Box, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type ChangeEvent } from 'react';
import type { Kitchen } from '../../shared/kitchens.js';
import { formatMoney } from '../../shared/money.js';
import { ApiError } from '../lib/api-client.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { MonthTotalsTable, PaidOrdersList, PaidOrdersTable } from './earnings-tables.js';
import { earningsCsvUrl, useEarnings, type EarningsRange } from './use-earnings.js';

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
      <Title order={1}>Earnings</Title>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          type="date"
          label="From"
          value={shown.from ?? ''}
          onChange={pick('from')}
          error={refused?.field === 'from' ? refused.message : undefined}
          w={160}
        />
        <TextInput
          type="date"
          label="To"
          value={shown.to ?? ''}
          onChange={pick('to')}
          error={refused?.field === 'to' ? refused.message : undefined}
          w={160}
        />
        {data && data.lines.length > 0 ? (
          <Button
            component="a"
            variant="default"
            href={earningsCsvUrl({ from: data.from, to: data.to })}
            download
          >
            Download CSV
          </Button>
        ) : null}
      </Group>
      {earnings.isPending ? (
        <Spinner label="Loading your earnings" />
      ) : earnings.isError && !refused ? (
        <LoadFailed
          title="Could not load your earnings"
          error={earnings.error}
          retry={() => void earnings.refetch()}
        />
      ) : !data ? null : data.lines.length === 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Text fw={600}>No paid orders yet</Text>
          <Text c="dimmed" size="sm">
            A card order shows here once you accept it, a cash order once it is delivered.
          </Text>
        </Paper>
      ) : (
        <>
          <Text>
            {data.lines.length} paid order{data.lines.length === 1 ? '' : 's'}: you earned{' '}
            <b>{formatMoney(total, data.currency)}</b>. Days and times are your kitchen’s ({data.timeZone}).
          </Text>
          <section aria-labelledby="months-heading">
            <Title order={2} size="h3" id="months-heading" mb="xs">
              Per month
            </Title>
            <MonthTotalsTable months={data.months} currency={data.currency} />
          </section>
          <section aria-labelledby="orders-heading">
            <Title order={2} size="h3" id="orders-heading" mb="xs">
              Paid orders, per day
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
