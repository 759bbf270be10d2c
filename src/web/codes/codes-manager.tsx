import {
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { PromoCode, PromoCodeList } from '../../shared/promo-codes.js';
import { parsePriceToCents } from '../../shared/money.js';
import { ApiError, api } from '../lib/api-client.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { t, translator } from '../i18n.js';

/** Whose codes: the operator's (the platform pays) or the signed-in cook's own kitchen's (the kitchen pays). */
export type CodesScope = 'operator' | 'kitchen';

const base = (scope: CodesScope) => `/api/${scope}/codes`;
const codesKey = (scope: CodesScope) => ['codes', scope] as const;

/** A whole number typed, or undefined when left empty; NaN when it is not one. */
const wholeNumber = (text: string) =>
  text.trim() === '' ? undefined : /^\d+$/.test(text.trim()) ? Number(text) : NaN;

/** What a code takes off: '−$5.00', or '10 % off (at most $3.00)'. */
function offText(code: PromoCode): string {
  const tr = translator();
  if (code.amountOffCents !== null)
    return t('{amount} off', { amount: tr.money(code.amountOffCents, code.currency) });
  return code.maxDiscountCents !== null
    ? t('{percent} % off, at most {amount}', {
        percent: code.percentOff ?? 0,
        amount: tr.money(code.maxDiscountCents, code.currency),
      })
    : t('{percent} % off', { percent: code.percentOff ?? 0 });
}

/** Its limits, in a line: minimum, uses, first orders, its end. */
function limitsText(code: PromoCode): string {
  const tr = translator();
  const parts = [
    code.maxUses === null
      ? t('{uses, plural, one {# use} other {# uses}}', { uses: code.uses })
      : t('{uses} of {max} uses', { uses: code.uses, max: code.maxUses }),
  ];
  if (code.minOrderCents > 0)
    parts.push(t('orders of {amount} or more', { amount: tr.money(code.minOrderCents, code.currency) }));
  if (code.maxUsesPerCustomer !== null)
    parts.push(t('{max, plural, one {once} other {# times}} per customer', { max: code.maxUsesPerCustomer }));
  if (code.firstOrderOnly) parts.push(t('first orders only'));
  if (code.endsAt) parts.push(t('until {date}', { date: tr.date(new Date(code.endsAt), 'date') }));
  if (code.kitchenName && code.paidBy === 'platform')
    parts.push(t('at {kitchen} only', { kitchen: code.kitchenName }));
  return parts.join(' · ');
}

/** The form's fields, as typed. */
const EMPTY = {
  code: '',
  kind: 'amount',
  amount: '',
  percent: '',
  cap: '',
  minimum: '',
  maxUses: '',
  perCustomer: '',
  endsOn: '',
  firstOnly: false,
  /** The operator's: a platform code for one kitchen only (its id), or for any. */
  kitchen: '',
};

/**
 * 'Promotion codes': make one (a word customers can type, or left empty for an unguessable one), see each with its
 * uses and the discount they gave, and turn one off at once (ADR 30).
 */
export function CodesManager({ scope }: { scope: CodesScope }) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: codesKey(scope), queryFn: () => api.get<PromoCodeList>(base(scope)) });
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: keyof typeof EMPTY) => (value: string | boolean) => {
    setForm({ ...form, [field]: value });
    setErrors({});
  };
  const refresh = () => void queryClient.invalidateQueries({ queryKey: codesKey(scope) });
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => api.post<{ code: PromoCode }>(base(scope), body),
    onSuccess: () => {
      setForm(EMPTY);
      refresh();
    },
    onError: (error) => {
      const field = error instanceof ApiError ? (error.field ?? 'form') : 'form';
      const shown: Record<string, string> = {
        amountOffCents: 'amount',
        percentOff: 'percent',
        maxDiscountCents: 'cap',
        minOrderCents: 'minimum',
        maxUses: 'maxUses',
        maxUsesPerCustomer: 'perCustomer',
        endsAt: 'endsOn',
        kitchenUid: 'kitchen',
        code: 'code',
      };
      setErrors({ [shown[field] ?? 'form']: t(error.message) });
    },
  });
  const toggle = useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      api.patch<{ code: PromoCode }>(`${base(scope)}/${id}`, { active }),
    onSettled: refresh,
  });

  const submit = () => {
    const problems: Record<string, string> = {};
    const money = (text: string, field: string) => {
      if (text.trim() === '') return undefined;
      const cents = parsePriceToCents(text);
      if (cents === null || cents <= 0) problems[field] = t('Enter an amount such as 5.00');
      return cents ?? undefined;
    };
    const count = (text: string, field: string) => {
      const n = wholeNumber(text);
      if (n !== undefined && (!Number.isFinite(n) || n < 1))
        problems[field] = t('Enter a whole number, 1 or more');
      return n;
    };
    const body: Record<string, unknown> = {
      ...(form.code.trim() ? { code: form.code } : {}),
      ...(form.kind === 'amount'
        ? { amountOffCents: money(form.amount, 'amount') }
        : { percentOff: count(form.percent, 'percent'), maxDiscountCents: money(form.cap, 'cap') }),
      minOrderCents: money(form.minimum, 'minimum'),
      maxUses: count(form.maxUses, 'maxUses'),
      maxUsesPerCustomer: count(form.perCustomer, 'perCustomer'),
      ...(form.endsOn ? { endsAt: new Date(`${form.endsOn}T23:59:59`).toISOString() } : {}),
      ...(form.firstOnly ? { firstOrderOnly: true } : {}),
      ...(scope === 'operator' && form.kitchen.trim() ? { kitchenUid: form.kitchen.trim() } : {}),
    };
    if (form.kind === 'amount' && form.amount.trim() === '') problems.amount = t('Enter the amount off');
    if (form.kind === 'percent' && form.percent.trim() === '')
      problems.percent = t('Enter the percentage off');
    if (Object.keys(problems).length) return setErrors(problems);
    create.mutate(Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)));
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`${scope}-new-code`}>
        <Title order={2} size="h4" id={`${scope}-new-code`} mb="sm">
          {t('New code')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {scope === 'operator'
            ? t(
                'The platform pays these codes: its fee first, and the rest to the kitchen, whose part is unchanged.',
              )
            : t('Your kitchen pays these codes: what they take off comes off your part of the order.')}
        </Text>
        <Stack gap="sm">
          <TextInput
            label={t('Code')}
            description={t('Leave empty for a code nobody can guess')}
            value={form.code}
            onChange={(e) => set('code')(e.currentTarget.value)}
            error={errors.code}
            maxLength={32}
            autoComplete="off"
          />
          <SegmentedControl
            aria-label={t('Kind of discount')}
            value={form.kind}
            onChange={set('kind')}
            data={[
              { value: 'amount', label: t('Amount off') },
              { value: 'percent', label: t('Percent off') },
            ]}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            {form.kind === 'amount' ? (
              <TextInput
                label={t('Amount off')}
                inputMode="decimal"
                value={form.amount}
                onChange={(e) => set('amount')(e.currentTarget.value)}
                error={errors.amount}
              />
            ) : (
              <>
                <TextInput
                  label={t('Percent off')}
                  inputMode="numeric"
                  value={form.percent}
                  onChange={(e) => set('percent')(e.currentTarget.value)}
                  error={errors.percent}
                />
                <TextInput
                  label={t('At most (optional)')}
                  inputMode="decimal"
                  value={form.cap}
                  onChange={(e) => set('cap')(e.currentTarget.value)}
                  error={errors.cap}
                />
              </>
            )}
            <TextInput
              label={t('Minimum order (optional)')}
              inputMode="decimal"
              value={form.minimum}
              onChange={(e) => set('minimum')(e.currentTarget.value)}
              error={errors.minimum}
            />
            <TextInput
              label={t('Uses in all (optional)')}
              inputMode="numeric"
              value={form.maxUses}
              onChange={(e) => set('maxUses')(e.currentTarget.value)}
              error={errors.maxUses}
            />
            <TextInput
              label={t('Uses per customer (optional)')}
              inputMode="numeric"
              value={form.perCustomer}
              onChange={(e) => set('perCustomer')(e.currentTarget.value)}
              error={errors.perCustomer}
            />
            <TextInput
              label={t('Last day (optional)')}
              type="date"
              value={form.endsOn}
              onChange={(e) => set('endsOn')(e.currentTarget.value)}
              error={errors.endsOn}
            />
            {scope === 'operator' && (
              <TextInput
                label={t('One kitchen only (optional)')}
                description={t('Its kitchen id; empty: any kitchen')}
                value={form.kitchen}
                onChange={(e) => set('kitchen')(e.currentTarget.value)}
                error={errors.kitchen}
              />
            )}
          </SimpleGrid>
          <Checkbox
            label={t('First orders only')}
            checked={form.firstOnly}
            onChange={(e) => set('firstOnly')(e.currentTarget.checked)}
          />
          {errors.form && (
            <Text c="red" size="sm" role="alert">
              {errors.form}
            </Text>
          )}
          <Group>
            <Button onClick={submit} loading={create.isPending}>
              {t('Create code')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <section aria-labelledby={`${scope}-codes`}>
        <Title order={2} size="h4" id={`${scope}-codes`} mb="sm">
          {t('Codes')}
        </Title>
        {list.isPending ? (
          <Spinner label={t('Loading the codes')} />
        ) : list.isError ? (
          <LoadFailed
            title={t('Could not load the codes')}
            error={list.error}
            retry={() => void list.refetch()}
          />
        ) : list.data.codes.length === 0 ? (
          <Text c="dimmed">{t('No codes yet')}</Text>
        ) : (
          <Stack gap="xs">
            {list.data.codes.map((code) => (
              <Paper key={code.id} withBorder radius="md" p="sm" data-testid="promo-code">
                <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
                  <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                    <Group gap="xs" wrap="wrap">
                      <Text fw={700} ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {code.code}
                      </Text>
                      <Badge
                        color={code.active ? 'teal.9' : 'gray'}
                        variant={code.active ? 'filled' : 'light'}
                      >
                        {code.active ? t('On') : t('Off')}
                      </Badge>
                      <Badge color="gray" variant="outline">
                        {code.paidBy === 'platform' ? t('The platform pays') : t('The kitchen pays')}
                      </Badge>
                    </Group>
                    <Text size="sm">{offText(code)}</Text>
                    <Text size="sm" c="dimmed">
                      {limitsText(code)}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {t('Given so far: {amount}', {
                        amount: translator().money(code.discountCents, code.currency),
                      })}
                    </Text>
                  </Stack>
                  <Button
                    variant={code.active ? 'light' : 'default'}
                    color={code.active ? 'red' : undefined}
                    size="xs"
                    onClick={() => toggle.mutate({ id: code.id, active: !code.active })}
                    aria-label={
                      code.active
                        ? t('Turn off {code}', { code: code.code })
                        : t('Turn on {code}', { code: code.code })
                    }
                  >
                    {code.active ? t('Turn off') : t('Turn on')}
                  </Button>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </section>
    </Stack>
  );
}

/** The operator's 'Codes' tab: the platform's codes and every kitchen's. */
export const OperatorCodes = () => <CodesManager scope="operator" />;

/** The cook's 'Promotion codes', on 'Earnings': their own kitchen's. */
export function KitchenCodes() {
  return (
    <section aria-labelledby="kitchen-codes-heading">
      <Title order={2} size="h3" id="kitchen-codes-heading" mb="xs">
        {t('Promotion codes')}
      </Title>
      <CodesManager scope="kitchen" />
    </section>
  );
}
