import { Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';
import type { CustomerPlan, PlanChange, PlanWeek } from '../../shared/plans.js';
import { LoadFailed } from '../lib/load-failed.js';
import { msg, t, translator } from '../i18n.js';
import { changeBy, everyWeek, weekSlot } from './plan-format.js';
import { useChangePlan, usePlans } from './use-plans.js';

// 'Change dishes' loads with its own code, when opened.
const ChangeDishes = lazy(() => import('./change-dishes.js'));

const STATUS_LABELS: Record<CustomerPlan['status'], string> = {
  active: msg('Active'),
  paused: msg('Paused'),
  cancelled: msg('Cancelled'),
  'waiting-for-card': msg('Waiting for your card'),
};

const STATE_LABELS: Record<PlanWeek['state'], string> = {
  planned: msg('Planned'),
  paused: msg('Paused'),
  skipped: msg('Skipped'),
  placing: msg('Being placed'),
  placed: msg('Placed'),
  failed: msg('Not placed'),
};

/** One plan: its day and dishes, its next order with its cut-off, and what may be changed. */
function PlanCard({ plan }: { plan: CustomerPlan }) {
  const change = useChangePlan();
  const [until, setUntil] = useState('');
  const [changingDishes, setChangingDishes] = useState(false);
  const run = async (body: PlanChange, done: string) => {
    try {
      await change.mutateAsync({ id: plan.id, change: body });
      notifications.show({ color: 'green', message: done });
      return true;
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('Could not change your plan'),
        message: (error as Error).message,
      });
      return false;
    }
  };
  /** To the provider's page to save a card on (the open one, or a fresh one). */
  const toCardPage = async () => {
    try {
      const page = await change.mutateAsync({ id: plan.id, change: { action: 'card' } });
      if (page.cardSetupUrl) window.location.assign(page.cardSetupUrl);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('Could not change your plan'),
        message: (error as Error).message,
      });
    }
  };
  const failed = plan.weeks.find((week) => week.state === 'failed');
  const next = plan.weeks.find((week) => Date.parse(week.slotStart) > Date.now());
  const open = (week: PlanWeek) => Date.parse(week.cutoff) > Date.now();
  const headingId = `plan-${plan.id}`;
  return (
    <Paper withBorder radius="md" p="md" component="article" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} size="h4" id={headingId}>
            {plan.kitchenName}
          </Title>
          <Badge color={plan.status === 'active' ? 'teal.9' : 'dark'}>{t(STATUS_LABELS[plan.status])}</Badge>
        </Group>
        <Text>{everyWeek(plan.weekday, plan.slotTime)}</Text>
        {plan.cooksChoice && plan.budgetCents !== null ? (
          <Text size="sm">
            {t("The cook's choice, within {budget} a week", { budget: translator().money(plan.budgetCents) })}
          </Text>
        ) : (
          <Text size="sm">
            {plan.items
              .map((line) => (line.quantity > 1 ? t('{item} × {quantity}', line) : line.item))
              .join(t(', '))}
          </Text>
        )}
        {plan.pausedUntil && (
          <Text size="sm">
            {t('Paused until {date}', {
              date: translator().date(new Date(`${plan.pausedUntil}T12:00:00Z`), 'date'),
            })}
          </Text>
        )}
        {plan.payment === 'card' && plan.status !== 'cancelled' && (
          <Group gap="xs" wrap="wrap">
            {plan.cardSetupUrl && (
              <Text size="sm" role="status">
                {plan.hasCard
                  ? t('Your new card is not saved yet; the card you saved before is charged until it is.')
                  : t('No week is ordered until your card is saved.')}
              </Text>
            )}
            {/* The page open, or a fresh one if it expired: asked for at the press. */}
            <Button
              variant="light"
              size="compact-sm"
              loading={change.isPending}
              onClick={() => void toCardPage()}
            >
              {plan.hasCard ? t('Change card') : t('Save your card')}
            </Button>
          </Group>
        )}
        {failed && (
          <Text size="sm" c="red.8" role="status">
            {t('Not placed for {when}: {reason}', {
              when: weekSlot(failed.slotStart, plan.timeZone),
              reason: failed.reason ?? '',
            })}
          </Text>
        )}
        {plan.status !== 'cancelled' && next && (
          <Stack gap={4}>
            <Text fw={600}>
              {t('Next order: {when}', { when: weekSlot(next.slotStart, plan.timeZone) })}{' '}
              <Badge variant="light">{t(STATE_LABELS[next.state])}</Badge>
            </Text>
            {next.items && (
              <Text size="sm">
                {t('This week: {dishes}', {
                  dishes: next.items
                    .map((line) => (line.quantity > 1 ? t('{item} × {quantity}', line) : line.item))
                    .join(t(', ')),
                })}
              </Text>
            )}
            {open(next) && <Text size="sm">{changeBy(next.cutoff, plan.timeZone)}</Text>}
            <Group gap="xs" wrap="wrap">
              {open(next) && next.state === 'planned' && (
                <Button
                  variant="light"
                  loading={change.isPending}
                  onClick={() => void run({ action: 'skip', week: next.week }, t('This week is skipped.'))}
                >
                  {t('Skip this week')}
                </Button>
              )}
              {open(next) && next.state === 'skipped' && (
                <Button
                  variant="light"
                  loading={change.isPending}
                  onClick={() =>
                    void run({ action: 'unskip', week: next.week }, t('This week is back in your plan.'))
                  }
                >
                  {t('Undo skip')}
                </Button>
              )}
            </Group>
          </Stack>
        )}
        {plan.status !== 'cancelled' &&
          (changingDishes ? (
            <Suspense fallback={null}>
              <ChangeDishes
                plan={plan}
                week={next && open(next) && next.state === 'planned' ? next : undefined}
                run={run}
                close={() => setChangingDishes(false)}
              />
            </Suspense>
          ) : (
            <Group gap="xs">
              <Button variant="light" onClick={() => setChangingDishes(true)}>
                {t('Change dishes')}
              </Button>
            </Group>
          ))}
        {plan.status !== 'cancelled' && (
          <Group gap="xs" align="end" wrap="wrap">
            {plan.status === 'paused' ? (
              <Button
                variant="light"
                onClick={() => void run({ action: 'resume' }, t('Your plan is on again.'))}
              >
                {t('Resume')}
              </Button>
            ) : (
              <>
                <TextInput
                  type="date"
                  label={t('Pause until')}
                  value={until}
                  onChange={(event) => setUntil(event.currentTarget.value)}
                />
                <Button
                  variant="light"
                  disabled={!until}
                  onClick={() => void run({ action: 'pause', until }, t('Your plan is paused.'))}
                >
                  {t('Pause')}
                </Button>
              </>
            )}
            <Button
              variant="subtle"
              color="red"
              onClick={() => void run({ action: 'cancel' }, t('Your plan is cancelled.'))}
            >
              {t('Cancel plan')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** 'Your plans' on the customer's account page: each weekly plan, its next order and its cut-off. */
export function YourPlans() {
  const plans = usePlans();
  if (plans.isError)
    return (
      <LoadFailed
        title={t('Could not load your plans')}
        error={plans.error}
        retry={() => void plans.refetch()}
      />
    );
  if (!plans.data?.length) return null;
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="your-plans-heading" id="plans">
      <Title order={2} size="h3" id="your-plans-heading" mb="md">
        {t('Your plans')}
      </Title>
      <Stack gap="md">
        {plans.data.map((plan) => (
          <PlanCard key={plan.id} plan={plan} />
        ))}
      </Stack>
    </Paper>
  );
}
