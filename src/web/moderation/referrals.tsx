import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { REFERRAL_PERIOD_DAYS, type KitchenToRefer, type ReferralResult } from '../../shared/moderation.js';
import { api } from '../lib/api-client.js';
import { t, translator } from '../i18n.js';

const formatWhen = (iso: string) =>
  translator().dateFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const recordUrl = (uid: string) => `/api/operator/kitchens/${encodeURIComponent(uid)}/record`;

/** One kitchen with food-safety complaints: 'Refer to the local health authority', then its record as a PDF. */
function Referral({ kitchen }: { kitchen: KitchenToRefer }) {
  const refer = useMutation({
    mutationFn: () =>
      api.post<ReferralResult>(`/api/operator/kitchens/${encodeURIComponent(kitchen.uid)}/referral`, {}),
  });
  const referral = kitchen.referral ?? refer.data?.referral ?? null;
  return (
    <Paper component="li" withBorder p="md" aria-label={kitchen.name}>
      <Stack gap="xs">
        <Text fw={700}>{kitchen.name}</Text>
        <Text size="sm">
          {t(
            '{count, plural, one {# food-safety complaint} other {# food-safety complaints}} in the last {days} days, the latest {when}',
            { count: kitchen.complaints, days: REFERRAL_PERIOD_DAYS, when: formatWhen(kitchen.latestAt) },
          )}
        </Text>
        {referral ? (
          <Text size="sm">
            {t('Referred by {email} on {when}: {note}', {
              email: referral.operatorEmail,
              when: formatWhen(referral.referredAt),
              note: referral.note,
            })}
          </Text>
        ) : null}
        {refer.error ? (
          <Text size="sm" c="red" role="alert">
            {t(refer.error.message)}
          </Text>
        ) : null}
        <Group gap="xs">
          {referral ? null : (
            <Button size="xs" color="red" loading={refer.isPending} onClick={() => refer.mutate()}>
              {t('Refer to the local health authority')}
            </Button>
          )}
          <Anchor href={recordUrl(kitchen.uid)} target="_blank" size="sm">
            {t("The kitchen's record (PDF)")}
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}

/** 'Food-safety complaints': kitchens with three or more in the period, to refer to the local health authority. */
export function Referrals({ kitchens }: { kitchens: KitchenToRefer[] }) {
  if (kitchens.length === 0) return null;
  return (
    <section aria-labelledby="health-referrals">
      <Title order={2} id="health-referrals" mb="sm">
        {t('Food-safety complaints')}
      </Title>
      <Alert color="red" mb="sm">
        {t('These kitchens had several food-safety complaints. Refer them to the local health authority.')}
      </Alert>
      <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }}>
        {kitchens.map((kitchen) => (
          <Referral key={kitchen.uid} kitchen={kitchen} />
        ))}
      </Stack>
    </section>
  );
}
