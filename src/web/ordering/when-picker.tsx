import { Group, NativeSelect, Radio, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { KitchenSlots, Slot } from '../../shared/ordering.js';
import { dayName, slotInViewerTime, slotTimes } from '../../shared/slots.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { useKitchenSlots } from './use-kitchen-slots.js';
import { t } from '../i18n.js';

/** When an order is for: 'As soon as possible', or a slot of the kitchen (its start, ISO). */
export type When = { kind: 'asap' } | { kind: 'slot'; start: string };

/** The slot chosen, if it is still listed and has a place left. */
export function chosenSlot(value: When, slots: KitchenSlots | undefined): Slot | undefined {
  if (value.kind !== 'slot') return undefined;
  return slots?.slots.find((slot) => slot.start === value.start && slot.available);
}

/** Whether the choice can be ordered now: 'As soon as possible' while the kitchen takes it, or a slot with a place. */
export function isChoosable(value: When, slots: KitchenSlots | undefined): boolean {
  return value.kind === 'asap' ? slots?.asap === true : chosenSlot(value, slots) !== undefined;
}

const firstAvailable = (slots: readonly Slot[]) => slots.find((slot) => slot.available);

/** The slots by the kitchen's local day, in time order. */
function byDay(slots: readonly Slot[]): Map<string, Slot[]> {
  const days = new Map<string, Slot[]>();
  for (const slot of slots) days.set(slot.date, [...(days.get(slot.date) ?? []), slot]);
  return days;
}

/**
 * 'When': 'As soon as possible' (disabled, saying why, when the kitchen is closed or takes orders for later only)
 * or 'Schedule for later' with a day and a time of the kitchen's slots (full ones shown, disabled), in the
 * kitchen's time, and in the customer's own when that differs.
 */
export function WhenPicker({
  kitchenUid,
  value,
  onChange,
  viewerTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
}: {
  kitchenUid: string;
  value: When;
  onChange: (value: When) => void;
  /** The customer's time zone (tests give one). */
  viewerTimeZone?: string;
}) {
  const query = useKitchenSlots(kitchenUid);
  const [pickedDay, setPickedDay] = useState<string | undefined>(undefined);

  // 'As soon as possible' is the default, but not while the kitchen is closed: then its first time with a place.
  const first = query.data && firstAvailable(query.data.slots);
  const asapNow = query.data?.asap;
  useEffect(() => {
    if (value.kind === 'asap' && asapNow === false && first) onChange({ kind: 'slot', start: first.start });
  }, [value.kind, asapNow, first, onChange]);

  if (query.isPending) return <Spinner label={t("Loading the kitchen's times")} size="sm" />;
  if (query.isError)
    return (
      <LoadFailed
        title={t("Could not load the kitchen's times")}
        error={query.error}
        retry={() => void query.refetch()}
      />
    );
  const data = query.data;

  const now = new Date();
  const { timeZone } = data;
  const schedules = data.slotMinutes !== null;
  if (!data.asap && !first && (!data.takesAsap || !schedules))
    return (
      <Text size="sm" role="status">
        {schedules ? t('No times left to order for: every slot is full.') : t('This kitchen is closed now.')}
      </Text>
    );

  const days = byDay(data.slots);
  const slot = value.kind === 'slot' ? data.slots.find((s) => s.start === value.start) : undefined;
  const day = slot?.date ?? pickedDay ?? first?.date ?? [...days.keys()][0];
  const daySlots = (day && days.get(day)) || [];
  const asapReason = !data.takesAsap
    ? t('This kitchen takes orders for later only')
    : data.asap
      ? t('Delivered or ready as soon as the cook can')
      : t('The kitchen is closed now');
  const gone = value.kind === 'slot' && !slot?.available;
  const viewerLine = slot && slotInViewerTime(slot, timeZone, viewerTimeZone, now);
  const full = (label: string, available: boolean) => (available ? label : t('{label} (full)', { label }));
  const dayLabel = (slots: Slot[]) =>
    full(
      dayName(new Date(slots[0]!.start), timeZone, now),
      slots.some((s) => s.available),
    );

  const chooseDay = (date: string) => {
    setPickedDay(date);
    const next = firstAvailable(days.get(date) ?? []);
    if (next) onChange({ kind: 'slot', start: next.start });
  };

  return (
    <Stack gap="xs">
      <Radio.Group
        label={t('When')}
        value={value.kind === 'asap' ? 'asap' : 'later'}
        onChange={(kind) => {
          if (kind === 'asap') onChange({ kind: 'asap' });
          else if (first) onChange({ kind: 'slot', start: (firstAvailable(daySlots) ?? first).start });
        }}
      >
        <Stack gap="xs" mt={6}>
          <Radio
            value="asap"
            label={t('As soon as possible')}
            description={asapReason}
            disabled={!data.asap}
          />
          {schedules && (
            <Radio
              value="later"
              label={t('Schedule for later')}
              description={first ? t('Choose a day and a time') : t('No times left: every slot is full')}
              disabled={!first}
            />
          )}
        </Stack>
      </Radio.Group>
      {value.kind === 'slot' && schedules && (
        <>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <NativeSelect
              label={t('Day')}
              value={day ?? ''}
              data={[...days.entries()].map(([date, slots]) => ({
                value: date,
                label: dayLabel(slots),
                disabled: !slots.some((s) => s.available),
              }))}
              onChange={(event) => chooseDay(event.currentTarget.value)}
            />
            <NativeSelect
              label={t('Time')}
              value={slot?.available ? slot.start : ''}
              data={[
                ...(slot?.available ? [] : [{ value: '', label: t('Choose a time'), disabled: true }]),
                ...daySlots.map((s) => ({
                  value: s.start,
                  label: full(slotTimes(s, timeZone), s.available),
                  disabled: !s.available,
                })),
              ]}
              onChange={(event) => onChange({ kind: 'slot', start: event.currentTarget.value })}
              error={gone ? t('That time is no longer available: choose another') : undefined}
            />
          </Group>
          {viewerLine && (
            <Text size="sm" c="dimmed">
              {t("Times are the kitchen's ({timeZone}): that is {viewerTime}.", {
                timeZone,
                viewerTime: viewerLine,
              })}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
