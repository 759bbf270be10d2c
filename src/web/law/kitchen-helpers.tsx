import {
  Anchor,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import type { KitchenDocuments, KitchenHelper } from '../../shared/kitchen-documents.js';
import { ApiError } from '../lib/api-client.js';
import { t, translator } from '../i18n.js';
import { useHelpers } from './use-kitchen-rules.js';

const day = (date: string) => translator().date(new Date(`${date}T12:00:00Z`), 'date');

/**
 * Where a helper's card stands: added (valid until), not added yet (the day it is due), or overdue (the kitchen is
 * paused). The day due is said here rather than in a column of its own, so that the table fits 390 px.
 */
function cardState(helper: KitchenHelper, pausedFor: string | undefined): string {
  if (helper.card && helper.name !== pausedFor)
    return t('{number}, valid until {date}', {
      number: helper.card.number,
      date: day(helper.card.expiresOn),
    });
  if (helper.dueOn === null) return t('Not asked for here');
  if (helper.name === pausedFor)
    return t('Overdue since {date}: your kitchen is paused until it is added', { date: day(helper.dueOn) });
  return t('Not added yet: add it above by {date}', { date: day(helper.dueOn) });
}

/**
 * The people who cook with the cook, each with the day their food handler card is due (the kitchen's rules: within N
 * days of starting, with the law that says so), and whether it is added; a form to add one, and to remove one.
 */
export function KitchenHelpersSection({ ownerUid, data }: { ownerUid: string; data: KitchenDocuments }) {
  const { add, remove } = useHelpers(ownerUid);
  const [name, setName] = useState('');
  const [startedOn, setStartedOn] = useState('');
  const [error, setError] = useState<{ field?: string | undefined; message: string } | undefined>();
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);
  const rule = data.helperCard;
  const pausedFor = data.pause?.holder;

  const submit = async () => {
    setError(undefined);
    try {
      await add.mutateAsync({ name, startedOn });
      setName('');
      setStartedOn('');
    } catch (e) {
      setError({ field: e instanceof ApiError ? e.field : undefined, message: (e as Error).message });
    }
  };

  return (
    <Paper component="section" withBorder radius="md" p="lg" aria-labelledby="helpers-heading">
      <Stack>
        <Title order={2} size="h3" id="helpers-heading">
          {t('Your helpers')}
        </Title>
        {rule ? (
          <Text size="sm">
            {rule.withinDays === null
              ? t('Each helper needs a {card} before they start cooking.', { card: rule.name })
              : t('Each helper needs a {card} within {days} days of starting.', {
                  card: rule.name,
                  days: rule.withinDays,
                })}{' '}
            {t(
              'Add it above with their name; past the day it is due, your kitchen is paused until it is added.',
            )}
            {rule.source && (
              <>
                {' '}
                {t('Source:')}{' '}
                <Anchor href={rule.source.url} target="_blank" rel="noreferrer">
                  {rule.source.title}
                </Anchor>
              </>
            )}
          </Text>
        ) : (
          <Text size="sm">{t('The rules of your place ask no card of your helpers.')}</Text>
        )}
        {data.helpers.length > 0 && (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Helper')}</Table.Th>
                <Table.Th>{t('Started on')}</Table.Th>
                <Table.Th>{t('Food handler card')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('Remove')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.helpers.map((helper) => (
                <Table.Tr key={helper.id}>
                  <Table.Td>{helper.name}</Table.Td>
                  <Table.Td>{day(helper.startedOn)}</Table.Td>
                  <Table.Td>{cardState(helper, pausedFor)}</Table.Td>
                  <Table.Td>
                    <Button
                      variant="subtle"
                      size="xs"
                      aria-label={t('Remove {name}', { name: helper.name })}
                      loading={remove.isPending && remove.variables === helper.id}
                      onClick={() => remove.mutate(helper.id)}
                    >
                      {t('Remove')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('Helper’s name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errorOf('name')}
          />
          <TextInput
            type="date"
            label={t('Started on')}
            value={startedOn}
            onChange={(e) => setStartedOn(e.currentTarget.value)}
            error={errorOf('startedOn')}
          />
          <Button onClick={() => void submit()} loading={add.isPending}>
            {t('Add helper')}
          </Button>
        </Group>
        {error && !error.field && (
          <Text c="red.9" role="alert">
            {error.message}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
