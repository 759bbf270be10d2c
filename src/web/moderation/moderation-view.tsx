import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { Link } from '../router/router.js';
import type {
  ModerationView as View,
  OpenReport,
  OperatorActionEntry,
  ReportedThing,
} from '../../shared/moderation.js';
import { paths } from '../../shared/paths.js';
import { actionUrls, useOperatorAction } from './use-moderation.js';
import { Approvals } from './approvals.js';
import { Referrals } from './referrals.js';
import { msg, t, translator, tx } from '../i18n.js';

const formatWhen = (iso: string) =>
  translator().dateFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const KIND_LABEL = {
  chat_message: msg('Chat message'),
  review:
    // translators: what was reported: a customer's review of a kitchen
    msg('Review'),
  kitchen: msg('Kitchen'),
} as const;

/** Each report's name for assistive technology. */
const REPORT_LABEL = {
  chat_message: msg('Report of chat message'),
  review: msg('Report of review'),
  kitchen: msg('Report of kitchen'),
} as const;

const ACTION_LABEL: Record<OperatorActionEntry['action'], string> = {
  hide_chat_message: msg('hid a chat message'),
  hide_review: msg('hid a review'),
  suspend_kitchen: msg('suspended a kitchen'),
  lift_suspension: msg("lifted a kitchen's suspension"),
  close_report: msg('closed a report'),
  approve_kitchen: msg('approved a kitchen'),
  ask_kitchen_changes: msg('asked a kitchen for changes'),
  refuse_kitchen: msg('refused a kitchen'),
  refer_kitchen: msg('referred a kitchen to the health authority'),
  override_rule: msg("overrode a value of a place's rules"),
  schedule_fee_change: msg('announced a change of fees'),
};

/** A button running one operator action, saying so when it fails. */
function ActionButton({ url, label, color }: { url: string; label: string; color?: string }) {
  const action = useOperatorAction();
  return (
    <Button
      size="xs"
      variant={color ? 'filled' : 'default'}
      color={color}
      loading={action.isPending}
      onClick={() =>
        action.mutate(url, {
          onError: (error) =>
            notifications.show({
              color: 'red',
              title: t('{action} did not work', { action: label }),
              message: t(error.message),
            }),
        })
      }
    >
      {label}
    </Button>
  );
}

/** What was reported, as it is now. */
function Thing({ target }: { target: ReportedThing | null }) {
  if (!target) return <Text c="dimmed">{t('It no longer exists.')}</Text>;
  switch (target.kind) {
    case 'chat_message':
      return (
        <Text>
          <Text span fw={700}>
            {target.authorName}
          </Text>
          : {target.text}{' '}
          {target.hidden && (
            <Badge color="gray">
              {
                // translators: hidden by an operator
                t('hidden')
              }
            </Badge>
          )}
        </Text>
      );
    case 'review':
      return (
        <Text>
          {tx('<b>{author}</b> on {kitchen}:', {
            author: target.authorName,
            kitchen: target.kitchenName,
            b: (chunks) => (
              <Text span fw={700}>
                {chunks as ReactNode}
              </Text>
            ),
          })}{' '}
          {'★'.repeat(target.stars)}
          {'☆'.repeat(5 - target.stars)} <Text span>{target.text}</Text>{' '}
          {target.hidden && <Badge color="gray">{t('hidden')}</Badge>}
        </Text>
      );
    case 'kitchen':
      return (
        <Text>
          <Anchor component={Link} to={paths.kitchenMenu.href(target.uid)}>
            {target.name}
          </Anchor>{' '}
          {target.suspended && (
            <Badge color="red">
              {
                // translators: a kitchen suspended by an operator
                t('suspended')
              }
            </Badge>
          )}
        </Text>
      );
  }
}

function ReportActions({ report }: { report: OpenReport }) {
  const { target } = report;
  return (
    <Group gap="xs">
      {target?.kind === 'chat_message' && !target.hidden && (
        <ActionButton url={actionUrls.hideMessage(report.targetId)} label={t('Hide message')} color="red" />
      )}
      {target?.kind === 'review' && !target.hidden && (
        <ActionButton url={actionUrls.hideReview(report.targetId)} label={t('Hide review')} color="red" />
      )}
      {target?.kind === 'kitchen' &&
        (target.suspended ? (
          <ActionButton url={actionUrls.lift(report.targetId)} label={t('Lift suspension')} />
        ) : (
          <ActionButton url={actionUrls.suspend(report.targetId)} label={t('Suspend kitchen')} color="red" />
        ))}
      <ActionButton url={actionUrls.closeReport(report.id)} label={t('Close report')} />
    </Group>
  );
}

/** The operator's page body: kitchens awaiting approval, open reports (newest first), suspended kitchens, actions. */
export function ModerationView({ view }: { view: View }) {
  return (
    <Stack gap="xl">
      <Referrals kitchens={view.referrals} />
      <Approvals kitchens={view.approvals} />
      <section aria-labelledby="open-reports">
        <Title order={2} id="open-reports" mb="sm">
          {t('Open reports')}
        </Title>
        {view.reports.length === 0 ? (
          <Text c="dimmed">{t('No open reports.')}</Text>
        ) : (
          <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }}>
            {view.reports.map((report) => (
              <Paper
                component="li"
                key={report.id}
                withBorder
                p="md"
                aria-label={t(REPORT_LABEL[report.targetKind])}
              >
                <Stack gap="xs">
                  <Group justify="space-between">
                    <Badge variant="light">{t(KIND_LABEL[report.targetKind])}</Badge>
                    <Text size="sm" c="dimmed">
                      {tx('Reported by {name} · <time>{when}</time>', {
                        name: report.reporterName ?? t('a deleted user'),
                        when: formatWhen(report.createdAt),
                        time: (chunks) => <time dateTime={report.createdAt}>{chunks as ReactNode}</time>,
                      })}
                    </Text>
                  </Group>
                  <Thing target={report.target} />
                  <Text size="sm">
                    <Text span fw={700}>
                      {t('Reason:')}
                    </Text>{' '}
                    {report.reason}
                  </Text>
                  <ReportActions report={report} />
                </Stack>
              </Paper>
            ))}
          </Stack>
        )}
      </section>

      <section aria-labelledby="suspended-kitchens">
        <Title order={2} id="suspended-kitchens" mb="sm">
          {t('Suspended kitchens')}
        </Title>
        {view.suspendedKitchens.length === 0 ? (
          <Text c="dimmed">{t('No kitchen is suspended.')}</Text>
        ) : (
          <Stack component="ul" gap="xs" p={0} style={{ listStyle: 'none' }}>
            {view.suspendedKitchens.map((kitchen) => (
              <Group component="li" key={kitchen.uid} justify="space-between">
                <Text>
                  {kitchen.name}{' '}
                  <Text span size="sm" c="dimmed">
                    {t('since {date}', { date: formatWhen(kitchen.suspendedAt) })}
                  </Text>
                </Text>
                <ActionButton url={actionUrls.lift(kitchen.uid)} label={t('Lift suspension')} />
              </Group>
            ))}
          </Stack>
        )}
      </section>

      <section aria-labelledby="recent-actions">
        <Title order={2} id="recent-actions" mb="sm">
          {t('Recent actions')}
        </Title>
        {view.actions.length === 0 ? (
          <Text c="dimmed">{t('No actions yet.')}</Text>
        ) : (
          <Table aria-labelledby="recent-actions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('When')}</Table.Th>
                <Table.Th>{t('Who')}</Table.Th>
                <Table.Th>{t('What')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.actions.map((action) => (
                <Table.Tr key={action.id}>
                  <Table.Td>
                    <time dateTime={action.createdAt}>{formatWhen(action.createdAt)}</time>
                  </Table.Td>
                  <Table.Td>{action.operatorEmail}</Table.Td>
                  <Table.Td>
                    {t(ACTION_LABEL[action.action])}
                    {/* The operator's own words (a reason, a note): shown as written, in their language. */}
                    {action.note ? (
                      <>
                        {' '}
                        <span data-testid="operator-note">({action.note})</span>
                      </>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
    </Stack>
  );
}
