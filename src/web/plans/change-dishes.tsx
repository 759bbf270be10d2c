import { Button, Group, NumberInput, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { decimalAmount } from '../../shared/money.js';
import type { CustomerPlan, PlanChange, PlanSettings, PlanWeek } from '../../shared/plans.js';
import { api } from '../lib/api-client.js';
import { usePublicMenu } from '../menu/use-public-menu.js';
import { t, translator } from '../i18n.js';
import { weekSlot } from './plan-format.js';

/**
 * 'Change dishes' of a plan (loaded when opened): how many of each of the kitchen's dishes, for the next week only
 * or for every week from now on. The server refuses a week whose cut-off has passed, naming it.
 */
export default function ChangeDishes({
  plan,
  week,
  run,
  close,
}: {
  plan: CustomerPlan;
  /** The next week, while its cut-off is still ahead. */
  week: PlanWeek | undefined;
  run: (change: PlanChange, done: string) => Promise<boolean>;
  close: () => void;
}) {
  const menu = usePublicMenu(plan.kitchenUid ?? '', plan.kitchenUid !== null);
  const offer = useQuery({
    queryKey: ['kitchens', plan.kitchenUid, 'plans'],
    queryFn: () => api.get<PlanSettings>(`/api/kitchens/${plan.kitchenUid ?? ''}/plans`),
    enabled: plan.kitchenUid !== null,
  });
  const cooksChoiceOffered = offer.data?.cooksChoice === true;
  const current = (week?.items ?? plan.items).filter((line) => line.itemId !== null);
  const [counts, setCounts] = useState<Record<string, number>>(() =>
    Object.fromEntries(current.map((line) => [line.itemId!, line.quantity])),
  );
  const [scope, setScope] = useState<'week' | 'always'>(week ? 'week' : 'always');
  const [budget, setBudget] = useState(
    plan.cooksChoice && plan.budgetCents !== null ? decimalAmount(plan.budgetCents) : '',
  );
  const itemIds = Object.entries(counts).flatMap(([id, quantity]) => Array<string>(quantity).fill(id));
  return (
    <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Text component="legend" fw={600}>
        {t('Change dishes')}
      </Text>
      {(menu.data ?? []).map((dish) => (
        <NumberInput
          key={dish.id}
          label={t('{item} · {price}', { item: dish.item, price: translator().money(dish.priceCents) })}
          min={0}
          max={20}
          allowDecimal={false}
          value={counts[dish.id] ?? 0}
          onChange={(value) => setCounts((all) => ({ ...all, [dish.id]: Number(value) || 0 }))}
        />
      ))}
      <Radio.Group value={scope} onChange={(value) => setScope(value as 'week' | 'always')}>
        <Stack gap={4}>
          {week && (
            <Radio
              value="week"
              label={t('Only for {when}', { when: weekSlot(week.slotStart, plan.timeZone) })}
            />
          )}
          <Radio value="always" label={t('Every week from now on')} />
        </Stack>
      </Radio.Group>
      {cooksChoiceOffered && (
        <Group align="end" gap="xs" wrap="wrap">
          <TextInput
            label={t('Or let the cook choose, within a budget a week')}
            description={t('Dishes only; fees apart.')}
            inputMode="decimal"
            value={budget}
            onChange={(event) => setBudget(event.currentTarget.value)}
            w={220}
          />
          <Button
            variant="light"
            disabled={!budget}
            onClick={() =>
              void run(
                { action: 'cooks-choice', budget },
                t('The cook chooses your dishes from now on.'),
              ).then((done) => done && close())
            }
          >
            {t('Let the cook choose')}
          </Button>
        </Group>
      )}
      <Group gap="xs">
        <Button
          disabled={itemIds.length === 0}
          onClick={() =>
            void run(
              scope === 'week' && week
                ? { action: 'dishes', week: week.week, itemIds }
                : { action: 'dishes', itemIds },
              t('Your dishes are changed.'),
            ).then((done) => done && close())
          }
        >
          {t('Save dishes')}
        </Button>
        <Button variant="subtle" onClick={close}>
          {t('Cancel')}
        </Button>
      </Group>
    </Stack>
  );
}
