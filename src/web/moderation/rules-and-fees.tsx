import {
  Button,
  Group,
  List,
  NumberInput,
  Paper,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import {
  OVERRIDE_KEYS,
  type Caps,
  type OperatorRules,
  type OverrideKey,
  type RuleOverride,
} from '../../shared/jurisdictions.js';
import { formatWholeMoney } from '../../shared/money.js';
import type { FeeChanges } from '../../shared/payments.js';
import { ApiError } from '../lib/api-client.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { msg, t, translator } from '../i18n.js';
import {
  useAnnounceFeeChange,
  useFeeChanges,
  useOperatorRules,
  useOverrideRule,
} from './use-rules-and-fees.js';

const KEY_LABEL: Record<OverrideKey, string> = {
  mealsPerDay: msg('Meals a day'),
  mealsPerWeek: msg('Meals a week'),
  grossPerYear: msg('Gross sales a year'),
};

const formatWhen = (iso: string) =>
  translator().dateFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
const formatDay = (isoDate: string) =>
  translator()
    .dateFormat({ dateStyle: 'medium', timeZone: 'UTC' })
    .format(new Date(`${isoDate}T00:00:00Z`));

/** A value as the rules say it: meals, money in whole units, or 'No cap'. */
function valueText(key: OverrideKey, value: number | null, currency: string): string {
  if (value === null) return t('No cap');
  return key === 'grossPerYear' ? formatWholeMoney(value, currency) : String(value);
}

/** A cap of a profile's file, as its value. */
function capValue(caps: Caps, key: OverrideKey): number | null {
  return key === 'grossPerYear' ? (caps.grossPerYear?.amountMinor ?? null) : caps[key];
}

/** The overrides in force somewhere: what, to which value, why, who and when. */
function OverrideList({ overrides, currency }: { overrides: RuleOverride[]; currency: string }) {
  if (!overrides.length) return null;
  return (
    <List size="sm" mt="xs">
      {overrides.map((o) => (
        <List.Item key={`${o.scope}-${o.target}-${o.key}`}>
          {t('{rule}: {value}, because “{reason}” ({who}, {when})', {
            rule: t(KEY_LABEL[o.key]),
            value: valueText(o.key, o.value, currency),
            reason: o.reason,
            who: o.operatorEmail,
            when: formatWhen(o.at),
          })}
        </List.Item>
      ))}
    </List>
  );
}

/** Each profile's caps (an overridden value in force, the file's beside it), and kitchens with their own. */
function CapsByPlace({ rules }: { rules: OperatorRules }) {
  const inForce = (caps: Caps, overrides: RuleOverride[], key: OverrideKey) => {
    const override = overrides.find((o) => o.key === key);
    const file = valueText(key, capValue(caps, key), caps.grossPerYear?.currency ?? rules.currency);
    return override
      ? t('{value} (file: {file})', {
          value: valueText(key, override.value, rules.currency),
          file,
        })
      : file;
  };
  return (
    <section aria-labelledby="caps-by-place">
      <Title order={2} id="caps-by-place" mb="sm">
        {t('Caps by place')}
      </Title>
      {/* Wider than a phone: it scrolls sideways in its own box, which the keyboard can reach. */}
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0, 'aria-label': t('Caps by place') }}>
        <Table aria-labelledby="caps-by-place" miw={520}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Place')}</Table.Th>
              {OVERRIDE_KEYS.map((key) => (
                <Table.Th key={key}>{t(KEY_LABEL[key])}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rules.profiles.map((profile) => (
              <Table.Tr key={profile.id}>
                <Table.Th scope="row">
                  {profile.name}
                  <Text size="xs" c="dimmed">
                    {profile.id}
                  </Text>
                  <OverrideList overrides={profile.overrides} currency={rules.currency} />
                </Table.Th>
                {OVERRIDE_KEYS.map((key) => (
                  <Table.Td key={key}>{inForce(profile.caps, profile.overrides, key)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Title order={3} size="h4" mt="md" mb="xs">
        {t('Kitchens with their own values')}
      </Title>
      {rules.kitchens.length === 0 ? (
        <Text c="dimmed">{t('No kitchen has values of its own.')}</Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {rules.kitchens.map((kitchen) => (
            <Paper component="li" key={kitchen.uid} withBorder p="sm" aria-label={kitchen.name}>
              <Text fw={700}>{kitchen.name}</Text>
              <Text size="xs" c="dimmed">
                {kitchen.uid}
              </Text>
              <OverrideList overrides={kitchen.overrides} currency={rules.currency} />
            </Paper>
          ))}
        </Stack>
      )}
    </section>
  );
}

/** 'Override a value': for a place's profile or one kitchen (by its id), with the reason the cook reads. */
function OverrideForm({ rules }: { rules: OperatorRules }) {
  const override = useOverrideRule();
  const [scope, setScope] = useState<'profile' | 'kitchen'>('profile');
  const [profile, setProfile] = useState<string | null>(null);
  const [kitchen, setKitchen] = useState('');
  const [key, setKey] = useState<OverrideKey>('mealsPerDay');
  const [value, setValue] = useState<number | string>('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<{ field: string | undefined; message: string } | undefined>();
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);

  const submit = async () => {
    setError(undefined);
    const amount = typeof value === 'number' ? value : null;
    try {
      await override.mutateAsync({
        scope,
        target: scope === 'profile' ? (profile ?? '') : kitchen.trim(),
        key,
        value: amount === null ? null : key === 'grossPerYear' ? Math.round(amount * 100) : amount,
        reason,
      });
      notifications.show({ color: 'green', title: t('Value overridden'), message: t(KEY_LABEL[key]) });
      setValue('');
      setReason('');
    } catch (e) {
      setError({ field: e instanceof ApiError ? e.field : undefined, message: t((e as Error).message) });
    }
  };

  return (
    <Paper component="section" withBorder p="md" aria-labelledby="override-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="override-heading">
          {t('Override a value')}
        </Title>
        <SegmentedControl
          aria-label={t('Override for')}
          value={scope}
          onChange={(v) => setScope(v as 'profile' | 'kitchen')}
          data={[
            { value: 'profile', label: t('A place') },
            { value: 'kitchen', label: t('One kitchen') },
          ]}
        />
        {scope === 'profile' ? (
          <Select
            label={t('Place')}
            data={rules.profiles.map((p) => ({ value: p.id, label: `${p.name} (${p.id})` }))}
            value={profile}
            onChange={setProfile}
            error={errorOf('target')}
          />
        ) : (
          <TextInput
            label={t('Kitchen id')}
            value={kitchen}
            onChange={(e) => setKitchen(e.currentTarget.value)}
            error={errorOf('target')}
          />
        )}
        <Group align="flex-start" wrap="wrap">
          <Select
            label={t('Value')}
            data={OVERRIDE_KEYS.map((k) => ({ value: k, label: t(KEY_LABEL[k]) }))}
            value={key}
            onChange={(k) => k && setKey(k as OverrideKey)}
            allowDeselect={false}
          />
          <NumberInput
            label={
              key === 'grossPerYear'
                ? t('New value ({currency})', { currency: rules.currency })
                : t('New value')
            }
            description={t('Empty: no cap')}
            value={value}
            onChange={setValue}
            min={1}
            allowDecimal={key === 'grossPerYear'}
            error={errorOf('value')}
          />
        </Group>
        <Textarea
          label={t('Reason')}
          description={t('Shown to the cooks it applies to, and kept in the operators’ log')}
          withAsterisk
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={2}
          error={errorOf('reason')}
        />
        {error && !['target', 'value', 'reason'].includes(error.field ?? '') && (
          <Text c="red.9" role="alert">
            {error.message}
          </Text>
        )}
        <Group>
          <Button onClick={() => void submit()} loading={override.isPending}>
            {t('Override')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The commission in force, the changes announced, and 'Announce a change of fees' (30 days ahead at least). */
function Fees({ fees }: { fees: FeeChanges }) {
  const announce = useAnnounceFeeChange();
  const [percent, setPercent] = useState<number | string>('');
  const [day, setDay] = useState('');
  const [error, setError] = useState<{ field: string | undefined; message: string } | undefined>();
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);

  const submit = async () => {
    setError(undefined);
    try {
      const change = await announce.mutateAsync({
        commissionPercent: typeof percent === 'number' ? percent : Number.NaN,
        effectiveOn: day,
      });
      notifications.show({
        color: 'green',
        title: t('Change of fees announced'),
        message: t('{count, plural, one {Emailed to # cook} other {Emailed to # cooks}}', {
          count: change.cooks,
        }),
      });
      setPercent('');
      setDay('');
    } catch (e) {
      setError({ field: e instanceof ApiError ? e.field : undefined, message: t((e as Error).message) });
    }
  };

  return (
    <Paper component="section" withBorder p="md" aria-labelledby="fees-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="fees-heading">
          {t('Fees')}
        </Title>
        <Text>{t('Commission on card orders today: {percent} %', { percent: fees.commissionPercent })}</Text>
        <Title order={3} size="h4">
          {t('Changes announced')}
        </Title>
        {fees.changes.length === 0 ? (
          <Text c="dimmed">{t('No change of fees announced.')}</Text>
        ) : (
          <List size="sm" aria-label={t('Changes announced')}>
            {fees.changes.map((change) => (
              <List.Item key={change.id}>
                {t('{percent} % from {day}, announced by {who} on {when}', {
                  percent: change.commissionPercent,
                  day: formatDay(change.effectiveOn),
                  who: change.operatorEmail,
                  when: formatWhen(change.announcedAt),
                })}
              </List.Item>
            ))}
          </List>
        )}
        <Title order={3} size="h4">
          {t('Announce a change of fees')}
        </Title>
        <Text size="sm">
          {t('Every cook is emailed. It applies from {date} at the earliest (30 days’ notice).', {
            date: formatDay(fees.earliestEffectiveOn),
          })}
        </Text>
        <Group align="flex-start" wrap="wrap">
          <NumberInput
            label={t('New commission (%)')}
            value={percent}
            onChange={setPercent}
            min={0}
            max={50}
            decimalScale={2}
            error={errorOf('commissionPercent')}
          />
          <TextInput
            type="date"
            label={t('Applies from')}
            min={fees.earliestEffectiveOn}
            value={day}
            onChange={(e) => setDay(e.currentTarget.value)}
            error={errorOf('effectiveOn')}
          />
        </Group>
        {error && !['commissionPercent', 'effectiveOn'].includes(error.field ?? '') && (
          <Text c="red.9" role="alert">
            {error.message}
          </Text>
        )}
        <Group>
          <Button onClick={() => void submit()} loading={announce.isPending}>
            {t('Announce the change')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The operator's 'Rules and fees' tab: caps by place with overrides, a form to override one, and the fees. */
export function RulesAndFees() {
  const rules = useOperatorRules();
  const fees = useFeeChanges();
  if (rules.isError)
    return (
      <LoadFailed
        title={t('Could not load the rules')}
        error={rules.error}
        retry={() => void rules.refetch()}
      />
    );
  if (fees.isError)
    return (
      <LoadFailed title={t('Could not load the fees')} error={fees.error} retry={() => void fees.refetch()} />
    );
  if (!rules.data || !fees.data) return <Spinner label={t('Loading the rules and fees')} />;
  return (
    <Stack gap="xl">
      <CapsByPlace rules={rules.data} />
      <OverrideForm rules={rules.data} />
      <Fees fees={fees.data} />
    </Stack>
  );
}
