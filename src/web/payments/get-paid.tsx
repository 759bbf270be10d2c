import { Alert, Badge, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { useSearchParams } from '../router/router.js';
import { PAYOUT_STATE_LABELS } from '../../shared/payments.js';
import { LoadFailed } from '../lib/load-failed.js';
import { usePayoutActions, usePayouts } from './payout-actions.js';
import { FeesNote } from './fees-note.js';
import { t } from '../i18n.js';

// 'Payouts on' is filled: green text on light green is 3.8:1, under axe's 4.5:1 (white on teal.9 is above it).
const STATE_COLORS = { 'not-set-up': 'gray', 'details-needed': 'orange', 'payouts-on': 'teal.9' } as const;

/**
 * 'Get paid' on /MenuDashboard: the cook connects their kitchen to the payment provider ('Set up payouts' opens its
 * onboarding; back from it, the state is asked afresh: 'Details needed' or 'Payouts on'), and chooses whether to
 * 'Accept cash on delivery'. A kitchen takes card orders once its payouts are on.
 */
export function GetPaid() {
  const payouts = usePayouts();
  const actions = usePayoutActions();
  const [params, setParams] = useSearchParams();
  const back = params.get('payouts');
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (!back || handled.current === back) return;
    handled.current = back;
    // 'refresh': the onboarding link expired before it was finished: a new one, straight away.
    if (back === 'refresh')
      actions.onboarding.mutate(undefined, { onSuccess: ({ url }) => window.location.assign(url) });
    else actions.refresh.mutate(undefined, { onSettled: () => setParams({}, { replace: true }) });
  }, [back, actions.onboarding, actions.refresh, setParams]);

  const setUp = () =>
    actions.onboarding.mutate(undefined, {
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (error) =>
        notifications.show({
          color: 'red',
          title: t('Could not open the payouts set-up'),
          message: error.message,
        }),
    });
  const setTips = (acceptsTips: boolean) =>
    actions.tips.mutate(acceptsTips, {
      onError: (error) => notifications.show({ color: 'red', title: t('Not saved'), message: error.message }),
    });
  const setCash = (acceptsCash: boolean) =>
    actions.cash.mutate(acceptsCash, {
      onError: (error) => notifications.show({ color: 'red', title: t('Not saved'), message: error.message }),
    });

  return (
    <Paper component="section" withBorder radius="md" p="lg" aria-labelledby="get-paid-heading">
      <Title order={2} size="h3" id="get-paid-heading" mb="sm">
        {t('Get paid')}
      </Title>
      {payouts.isError ? (
        <LoadFailed
          title={t('Could not load your payouts')}
          error={payouts.error}
          retry={() => void payouts.refetch()}
        />
      ) : !payouts.data ? (
        <Text c="dimmed">{t('Loading…')}</Text>
      ) : (
        <Stack gap="md">
          <FeesNote />
          {payouts.data.cardPayments ? (
            <>
              <Group gap="sm">
                <Text fw={600}>{t('Card payments:')}</Text>
                <Badge
                  size="lg"
                  variant={payouts.data.state === 'payouts-on' ? 'filled' : 'light'}
                  tt="none"
                  color={STATE_COLORS[payouts.data.state]}
                  data-testid="payout-state"
                >
                  {t(PAYOUT_STATE_LABELS[payouts.data.state])}
                </Badge>
              </Group>
              {payouts.data.state === 'payouts-on' ? (
                <Text size="sm">
                  {t("Customers pay by card; what they pay, less the platform's fees, comes to you.")}
                </Text>
              ) : (
                <>
                  <Text size="sm">
                    {payouts.data.state === 'details-needed'
                      ? t('Your payouts need a few more details before customers can pay you by card.')
                      : t('Customers can pay you by card once your payouts are set up.')}
                  </Text>
                  <Group>
                    <Button
                      onClick={setUp}
                      loading={actions.onboarding.isPending || actions.refresh.isPending}
                    >
                      {t('Set up payouts')}
                    </Button>
                  </Group>
                </>
              )}
            </>
          ) : (
            <Alert color="gray" title={t('Cash on delivery')}>
              {t(
                'This marketplace takes no card payments: your customers pay you in cash when their order arrives.',
              )}
            </Alert>
          )}
          {payouts.data.cardPayments ? (
            <Switch
              label={t('Accept cash on delivery')}
              description={t('Customers may choose to pay you in cash when their order arrives')}
              checked={payouts.data.acceptsCash}
              disabled={actions.cash.isPending}
              onChange={(event) => setCash(event.currentTarget.checked)}
            />
          ) : null}
          {payouts.data.cardPayments ? (
            <Switch
              label={t('Accept tips')}
              description={t(
                'Customers may tip you by card at checkout and for 48 hours after delivery; tips come to you whole, with no platform fee',
              )}
              checked={payouts.data.acceptsTips}
              disabled={actions.tips.isPending}
              onChange={(event) => setTips(event.currentTarget.checked)}
            />
          ) : null}
        </Stack>
      )}
    </Paper>
  );
}
