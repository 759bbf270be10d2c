import { Anchor, Badge, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { DOCUMENT_LABELS } from '../../shared/kitchen-documents.js';
import type { KitchenAwaitingApproval } from '../../shared/moderation.js';
import { t, translator } from '../i18n.js';
import { useListingDecision } from './use-moderation.js';

const formatDay = (isoDate: string) =>
  translator()
    .dateFormat({ dateStyle: 'medium', timeZone: 'UTC' })
    .format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));

/** One kitchen waiting for a decision: its place, its papers, and the operator's three answers. */
function Approval({ kitchen }: { kitchen: KitchenAwaitingApproval }) {
  const [reason, setReason] = useState('');
  const decide = useListingDecision(kitchen.uid);
  const error = decide.error ? t(decide.error.message) : null;
  const run = (decision: 'approve' | 'ask-changes' | 'refuse') => decide.mutate({ decision, reason });
  return (
    <Paper component="li" withBorder p="md" aria-label={kitchen.name}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={700}>{kitchen.name}</Text>
          {kitchen.state === 'changes-asked' ? (
            <Badge color="yellow">{t('Changes asked')}</Badge>
          ) : (
            <Badge>{t('Awaiting approval')}</Badge>
          )}
        </Group>
        <Text size="sm">
          {t('{owner} · {address} · rules of {place}', {
            owner: kitchen.ownerName,
            address: kitchen.address,
            place: kitchen.place || t('no place found'),
          })}
        </Text>
        {kitchen.reason && <Text size="sm">{t('Asked: {reason}', { reason: kitchen.reason })}</Text>}
        {kitchen.documents.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('No papers added yet.')}
          </Text>
        ) : (
          <Stack component="ul" gap={2} pl="md" m={0}>
            {kitchen.documents.map((paper) => (
              <Text component="li" size="sm" key={`${paper.kind}-${paper.number}-${paper.expiresOn}`}>
                {t('{paper}: {number}{holder}, expires {date}', {
                  paper: t(DOCUMENT_LABELS[paper.kind]),
                  number: paper.number,
                  holder: paper.holder ? ` (${paper.holder})` : '',
                  date: formatDay(paper.expiresOn),
                })}
                {paper.file && (
                  <>
                    {' · '}
                    <Anchor href={paper.file.url} target="_blank" rel="noopener">
                      {paper.file.type === 'pdf' ? t('View the PDF') : t('View the photo')}
                    </Anchor>
                  </>
                )}
              </Text>
            ))}
          </Stack>
        )}
        <Textarea
          label={t('Reason for the cook')}
          description={t('Needed to ask for changes or to refuse')}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={1}
          error={error}
        />
        <Group gap="xs">
          <Button size="xs" loading={decide.isPending} onClick={() => run('approve')}>
            {t('Approve')}
          </Button>
          <Button size="xs" variant="default" loading={decide.isPending} onClick={() => run('ask-changes')}>
            {t('Ask for changes')}
          </Button>
          <Button size="xs" color="red" loading={decide.isPending} onClick={() => run('refuse')}>
            {t('Refuse')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** 'Kitchens awaiting approval': kitchens whose place's rules ask for a permit, oldest first. */
export function Approvals({ kitchens }: { kitchens: KitchenAwaitingApproval[] }) {
  return (
    <section aria-labelledby="awaiting-approval">
      <Title order={2} id="awaiting-approval" mb="sm">
        {t('Kitchens awaiting approval')}
      </Title>
      {kitchens.length === 0 ? (
        <Text c="dimmed">{t('No kitchen is waiting for approval.')}</Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }}>
          {kitchens.map((kitchen) => (
            <Approval key={kitchen.uid} kitchen={kitchen} />
          ))}
        </Stack>
      )}
    </section>
  );
}
