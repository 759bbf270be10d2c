import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import { CREDIT_KIND_NAMES } from '../../shared/credit.js';
import { formatMoney } from '../../shared/money.js';
import { t, translator } from '../i18n.js';
import { useCredit } from './use-credit.js';

const formatWhen = (iso: string) => translator().dateFormat({ dateStyle: 'medium' }).format(new Date(iso));

/** 'Store credit' on the customer's account page: the balance and its history, newest first. */
export function StoreCredit() {
  const credit = useCredit();
  const account = credit.data;
  if (!account || (account.balanceCents === 0 && account.entries.length === 0)) return null;
  const money = (minor: number) => formatMoney(minor, account.currency);
  return (
    <section aria-labelledby="store-credit-heading">
      <Title order={2} id="store-credit-heading" mb="xs">
        {t('Store credit')}
      </Title>
      <Paper withBorder p="md" maw={640}>
        <Stack gap="sm">
          <Text fw={700} data-testid="credit-balance">
            {t('Your balance: {amount}', { amount: money(account.balanceCents) })}
          </Text>
          <Text size="sm" c="dimmed">
            {t("It is used first when you choose it at checkout, at any kitchen's order.")}
          </Text>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Date')}</Table.Th>
                <Table.Th>{t('What')}</Table.Th>
                <Table.Th ta="right">{t('Amount')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {account.entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{formatWhen(entry.at)}</Table.Td>
                  <Table.Td>
                    {t(CREDIT_KIND_NAMES[entry.kind])}
                    {entry.kitchenName ? ` · ${entry.kitchenName}` : ''}
                  </Table.Td>
                  <Table.Td ta="right">
                    {entry.amountCents > 0 ? '+' : '−'}
                    {money(Math.abs(entry.amountCents))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Paper>
    </section>
  );
}
