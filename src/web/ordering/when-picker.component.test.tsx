// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KitchenSlots, Slot } from '../../shared/ordering.js';
import { WhenPicker, isChoosable, type When } from './when-picker.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const KITCHEN = '00000000-0000-4000-8000-000000000001';
// Tuesday 24 November 2026, 12:00 in New York.
const NOW = Date.parse('2026-11-24T17:00:00Z');

const slot = (start: string, left: number | null = null): Slot => ({
  start: new Date(start).toISOString(),
  end: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
  date: new Date(Date.parse(start) - 5 * 60 * 60_000).toISOString().slice(0, 10),
  left,
  available: left === null || left > 0,
});

const base: KitchenSlots = {
  offersDelivery: true,
  offersPickup: false,
  takesAsap: true,
  slotMinutes: 30,
  priorNoticeMinutes: 60,
  daysAhead: 3,
  minimumOrderCents: 0,
  timeZone: 'America/New_York',
  asap: true,
  slots: [
    slot('2026-11-24T23:00Z', 2), // Today 6:00–6:30 PM
    slot('2026-11-24T23:30Z', 0), // full
    slot('2026-11-25T23:00Z'), // Tomorrow
    slot('2026-11-27T23:00Z', 0), // Fri 27 Nov: all full
  ],
};

describe("the 'When' picker", () => {
  let root: Root | undefined;
  let container: HTMLElement;
  const asked: string[] = [];
  const changes: When[] = [];

  function Picker({ initial }: { initial: When }) {
    const [value, setValue] = useState<When>(initial);
    return (
      <WhenPicker
        kitchenUid={KITCHEN}
        value={value}
        viewerTimeZone="Europe/London"
        onChange={(next) => {
          changes.push(next);
          setValue(next);
        }}
      />
    );
  }

  const show = async (answer: KitchenSlots, initial: When = { kind: 'asap' }) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await act(async () => {
      root = createRoot(container);
      root.render(
        <MantineProvider>
          <QueryClientProvider client={client}>
            <Picker initial={initial} />
          </QueryClientProvider>
        </MantineProvider>,
      );
    });
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  };

  const radio = (name: string) =>
    [...container.querySelectorAll<HTMLInputElement>('input[type=radio]')].find(
      (input) => container.querySelector(`label[for="${input.id}"]`)?.textContent === name,
    );
  const select = (name: string) =>
    [...container.querySelectorAll<HTMLSelectElement>('select')].find(
      (s) => container.querySelector(`label[for="${s.id}"]`)?.textContent === name,
    );
  const options = (name: string) =>
    [...(select(name)?.options ?? [])].map((o) => `${o.textContent}${o.disabled ? ' [disabled]' : ''}`);
  const choose = async (name: string, value: string) => {
    const element = select(name)!;
    await act(async () => {
      element.value = value;
      element.dispatchEvent(new Event('change', { bubbles: true }));
    });
  };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    asked.length = 0;
    changes.length = 0;
    window.matchMedia ??= ((query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as unknown as typeof window.matchMedia;
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('offers both, then days and times in the kitchen’s time, full ones disabled, and the customer’s own time', async () => {
    await show(base);
    expect(asked).toEqual([`/api/kitchens/${KITCHEN}/slots`]);
    expect(radio('As soon as possible')?.checked).toBe(true);
    expect(radio('Schedule for later')?.disabled).toBe(false);
    expect(select('Day')).toBeUndefined();

    await act(async () => radio('Schedule for later')!.click());
    expect(changes.at(-1)).toEqual({ kind: 'slot', start: base.slots[0]!.start });
    expect(options('Day')).toEqual(['Today', 'Tomorrow', 'Fri 27 Nov (full) [disabled]']);
    expect(options('Time')).toEqual(['6:00–6:30 PM', '6:30–7:00 PM (full) [disabled]']);
    expect(container.textContent).toContain(
      "Times are the kitchen's (America/New_York): that is Today 11:00–11:30 PM your time.",
    );

    await choose('Day', '2026-11-25');
    expect(changes.at(-1)).toEqual({ kind: 'slot', start: base.slots[2]!.start });
    expect(options('Time')).toEqual(['6:00–6:30 PM']);
    expect(container.textContent).toContain('Tomorrow 11:00–11:30 PM your time');

    await act(async () => radio('As soon as possible')!.click());
    expect(changes.at(-1)).toEqual({ kind: 'asap' });
    expect(select('Time')).toBeUndefined();
  });

  it('says why ‘As soon as possible’ cannot be chosen, and starts on the first time with a place', async () => {
    await show({ ...base, asap: false });
    expect(radio('As soon as possible')?.disabled).toBe(true);
    expect(container.textContent).toContain('The kitchen is closed now');
    expect(changes).toEqual([{ kind: 'slot', start: base.slots[0]!.start }]);
    expect(radio('Schedule for later')?.checked).toBe(true);
    expect(select('Time')?.value).toBe(base.slots[0]!.start);

    act(() => root?.unmount());
    root = undefined;
    await show({ ...base, takesAsap: false, asap: false });
    expect(container.textContent).toContain('This kitchen takes orders for later only');
  });

  it('has no ‘Schedule for later’ for a kitchen without slots, and says when every slot is full', async () => {
    await show({ ...base, slotMinutes: null, slots: [] });
    expect(radio('As soon as possible')?.checked).toBe(true);
    expect(radio('Schedule for later')).toBeUndefined();

    act(() => root?.unmount());
    root = undefined;
    const full = { ...base, slots: [slot('2026-11-24T23:30Z', 0)] };
    await show(full);
    expect(radio('Schedule for later')?.disabled).toBe(true);
    expect(container.textContent).toContain('No times left: every slot is full');
  });

  it('asks again for a slot that filled up since it was chosen', async () => {
    const start = base.slots[1]!.start; // full now
    await show(base, { kind: 'slot', start });
    expect(select('Time')?.value).toBe('');
    expect(container.textContent).toContain('That time is no longer available: choose another');
    expect(isChoosable({ kind: 'slot', start }, base)).toBe(false);
    expect(isChoosable({ kind: 'slot', start: base.slots[0]!.start }, base)).toBe(true);
    expect(isChoosable({ kind: 'asap' }, { ...base, asap: false })).toBe(false);
  });
});
