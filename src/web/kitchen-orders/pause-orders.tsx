import { Group, NativeSelect, Switch, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Kitchen, PauseOrdersInput } from '../../shared/kitchens.js';
import { useAvailability } from '../availability/use-availability.js';
import { useKitchen } from '../kitchens/use-kitchen.js';
import { kitchenKey } from '../kitchens/use-kitchens.js';
import { api } from '../lib/api-client.js';
import { msg, t, translator } from '../i18n.js';

const DURATIONS = [
  { value: '', label: msg('Until I resume') },
  { value: '30', label: msg('30 minutes') },
  { value: '60', label: msg('1 hour') },
  { value: '120', label: msg('2 hours') },
  { value: '240', label: msg('4 hours') },
];

const clockTime = (iso: string) =>
  translator().dateFormat({ hour: 'numeric', minute: '2-digit' }).format(new Date(iso));

/**
 * 'Pause new orders': the kitchen shows as closed ('Not taking orders right now') and the server refuses orders,
 * until the cook resumes or the chosen time passes. The state is the live kitchen's, so every open tab agrees.
 */
export function PauseOrders({ kitchen }: { kitchen: Kitchen }) {
  const live = useKitchen(kitchen.uid).data ?? kitchen;
  const queryClient = useQueryClient();
  const [minutes, setMinutes] = useState('');
  const pause = useMutation({
    mutationFn: (input: PauseOrdersInput) => api.post<Kitchen>('/api/kitchen/pause', input),
    onSuccess: (updated) => queryClient.setQueryData(kitchenKey(updated.uid), updated),
  });
  const { paused } = useAvailability(live);
  const toggle = (on: boolean) =>
    pause.mutate(
      on
        ? {
            paused: true,
            until: minutes ? new Date(Date.now() + Number(minutes) * 60_000).toISOString() : null,
          }
        : { paused: false },
    );
  return (
    <Group gap="md" align="center" mb="md" wrap="wrap">
      <Switch
        label={t('Pause new orders')}
        size="md"
        checked={paused}
        disabled={pause.isPending}
        onChange={(event) => toggle(event.currentTarget.checked)}
      />
      {paused ? (
        <Text size="sm" role="status">
          {live.pausedUntil
            ? t('Not taking orders until {time}', { time: clockTime(live.pausedUntil) })
            : t('Not taking orders until you resume')}
        </Text>
      ) : (
        <NativeSelect
          aria-label={t('Pause for')}
          size="sm"
          data={DURATIONS.map((duration) => ({ ...duration, label: t(duration.label) }))}
          value={minutes}
          onChange={(event) => setMinutes(event.currentTarget.value)}
        />
      )}
      {pause.error && (
        <Text size="sm" c="red.8" role="alert">
          {t('Could not change the pause: {error}', { error: t(pause.error.message) })}
        </Text>
      )}
    </Group>
  );
}
