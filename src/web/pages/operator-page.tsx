import { Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { GoogleButton } from '../auth/google-button.js';
import { useSignOut } from '../auth/sign-in.js';
import { useSession } from '../auth/use-session.js';
import { PageLayout } from '../layout/page-layout.js';
import { LoadFailed } from '../lib/load-failed.js';
import { ModerationView } from '../moderation/moderation-view.js';
import { useModeration } from '../moderation/use-moderation.js';
import { MoneyView } from '../moderation/money-view.js';
import { ProblemsView } from '../moderation/problems-view.js';
import { useMoneyOverview } from '../moderation/use-money.js';
import { Spinner } from '../lib/spinner.js';
import { useSteadyWhilePressed } from '../live/steady-while-pressed.js';
import { t } from '../i18n.js';

const onSignInDone = (ok: boolean) => {
  if (!ok)
    notifications.show({
      color: 'red',
      title: t('Sign-in failed'),
      message: t('Only the operators this site lists can sign in here.'),
    });
};

/** The operator's live view, once signed in. */
function Moderation() {
  // A report arriving does not slide into the place of the one whose 'Hide message' the operator is pressing.
  const moderation = useSteadyWhilePressed(useModeration(true));
  if (moderation.isPending) return <Spinner label={t('Loading reports')} />;
  if (moderation.isError)
    return (
      <LoadFailed
        title={t('Could not load the reports')}
        error={moderation.error}
        retry={() => void moderation.refetch()}
      />
    );
  return <ModerationView view={moderation.data} />;
}

/** The 'Money' tab (mounted only while open: asked afresh each time it is opened). */
function Money() {
  const money = useMoneyOverview();
  if (money.isPending) return <Spinner label={t('Loading the money overview')} />;
  if (money.isError)
    return (
      <LoadFailed
        title={t('Could not load the money overview')}
        error={money.error}
        retry={() => void money.refetch()}
      />
    );
  return <MoneyView view={money.data} />;
}

/** The 'Overview' tab's code, with the chart library, loaded when the tab is first opened. */
const OverviewTab = lazy(async () => ({
  default: (await import('../insights/overview-view.js')).OverviewTab,
}));

/** The 'Plans' tab's code (weekly plans' placements and failures), loaded when the tab is first opened. */
const PlansTab = lazy(async () => ({
  default: (await import('../plans/operator-plans.js')).OperatorPlans,
}));

/** The 'Rules and fees' tab's code (caps by place, overrides, changes of fees), loaded when the tab is first opened. */
const RulesTab = lazy(async () => ({
  default: (await import('../moderation/rules-and-fees.js')).RulesAndFees,
}));

/** The 'Codes' tab's code (promotion codes, ADR 30), loaded when the tab is first opened. */
const CodesTab = lazy(async () => ({
  default: (await import('../codes/codes-manager.js')).OperatorCodes,
}));

/** Reports and the like in one tab, customers' problems with orders in another, the marketplace's money in a third. */
function OperatorTabs() {
  const [tab, setTab] = useState<string | null>('moderation');
  return (
    <Tabs value={tab} onChange={setTab}>
      <Tabs.List mb="lg">
        <Tabs.Tab value="moderation">{t('Moderation')}</Tabs.Tab>
        <Tabs.Tab value="problems">{t('Problems')}</Tabs.Tab>
        <Tabs.Tab value="money">{t('Money')}</Tabs.Tab>
        <Tabs.Tab value="overview">{t('Overview')}</Tabs.Tab>
        <Tabs.Tab value="plans">{t('Plans')}</Tabs.Tab>
        <Tabs.Tab value="rules">{t('Rules and fees')}</Tabs.Tab>
        <Tabs.Tab value="codes">{t('Codes')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="moderation">
        <Moderation />
      </Tabs.Panel>
      <Tabs.Panel value="problems">{tab === 'problems' ? <ProblemsView /> : null}</Tabs.Panel>
      <Tabs.Panel value="money">{tab === 'money' ? <Money /> : null}</Tabs.Panel>
      <Tabs.Panel value="overview">
        {tab === 'overview' ? (
          <Suspense fallback={<Spinner label={t('Loading the overview')} />}>
            <OverviewTab />
          </Suspense>
        ) : null}
      </Tabs.Panel>
      <Tabs.Panel value="plans">
        {tab === 'plans' ? (
          <Suspense fallback={<Spinner label={t('Loading the plans')} />}>
            <PlansTab />
          </Suspense>
        ) : null}
      </Tabs.Panel>
      <Tabs.Panel value="codes">
        {tab === 'codes' ? (
          <Suspense fallback={<Spinner label={t('Loading the codes')} />}>
            <CodesTab />
          </Suspense>
        ) : null}
      </Tabs.Panel>
      <Tabs.Panel value="rules">
        {tab === 'rules' ? (
          <Suspense fallback={<Spinner label={t('Loading the rules and fees')} />}>
            <RulesTab />
          </Suspense>
        ) : null}
      </Tabs.Panel>
    </Tabs>
  );
}

/** /Operator: operators sign in (their own session), act on reports, and watch the money. */
export function OperatorPage() {
  const session = useSession();
  const signOut = useSignOut('operator');
  const operator = session.data?.operator;
  return (
    <PageLayout>
      {session.isPending ? (
        <Spinner label={t('Checking your sign-in')} />
      ) : session.isError ? (
        <LoadFailed
          title={t('We could not check your sign-in')}
          error={session.error}
          retry={() => void session.refetch()}
        />
      ) : operator ? (
        <Stack gap="lg">
          <Group justify="space-between" align="flex-end">
            <Title order={1}>{t('Moderation and money')}</Title>
            <Group gap="sm">
              <Text c="dimmed">{t('Signed in as {name}', { name: operator.email })}</Text>
              <Button variant="default" size="xs" onClick={() => void signOut()}>
                {t('Sign out')}
              </Button>
            </Group>
          </Group>
          <OperatorTabs />
        </Stack>
      ) : (
        <Stack align="flex-start" gap="md">
          <Title order={1}>{t('Operators')}</Title>
          <Text c="dimmed">
            {t('Sign in with Google to review reports. Only the operators this site lists can.')}
          </Text>
          <GoogleButton role="operator" label={t('Sign in with Google')} onDone={onSignInDone} />
        </Stack>
      )}
    </PageLayout>
  );
}
