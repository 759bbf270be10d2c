// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Kitchen } from '../../shared/kitchens.js';
import type { Earnings } from '../../shared/payments.js';
import { KitchenEarnings } from './earnings.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const kitchen = { uid: '00000000-0000-4000-8000-000000000001', timeZone: 'Pacific/Auckland' } as Kitchen;
const base: Earnings = {
  currency: 'USD',
  timeZone: 'Pacific/Auckland',
  from: '2025-04-01',
  to: '2026-03-15',
  lines: [],
  days: [],
  months: [],
};
const line = {
  orderId: '00000000-0000-4000-8000-00000000000a',
  at: '2026-03-10T20:00:00.000Z',
  day: '2026-03-11',
  method: 'card' as const,
  items: ['Dal', 'Dal', 'Rice'],
  itemsCents: 2200,
  deliveryFeeCents: 299,
  platformFeeCents: 746,
  refundedCents: 0,
  tipCents: 0,
  netCents: 2499,
};
const total = { orders: 1, platformFeeCents: 746, refundedCents: 0, tipCents: 0, netCents: 2499 };

describe("the cook's 'Earnings'", () => {
  let root: Root | undefined;
  let container: HTMLElement;
  const asked: string[] = [];

  const show = async (answer: Earnings) => {
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
            <KitchenEarnings kitchen={kitchen} />
          </QueryClientProvider>
        </MantineProvider>,
      );
    });
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  };

  beforeEach(() => {
    asked.length = 0;
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
  });

  it('says so kindly when nothing was paid yet, with no file to download', async () => {
    await show(base);
    expect(asked).toEqual(['/api/kitchen/earnings']);
    expect(container.textContent).toContain('No paid orders yet');
    expect(container.querySelector('table')).toBeNull();
    expect([...container.querySelectorAll('a')].map((a) => a.textContent)).not.toContain('Download CSV');
  });

  it('lists the paid orders under their day, with the totals per day and month, and the CSV of those days', async () => {
    await show({
      ...base,
      lines: [line],
      days: [{ period: '2026-03-11', ...total }],
      months: [{ period: '2026-03', ...total }],
    });
    const orders = container.querySelector('table[aria-label="Paid orders"]');
    const cells = (row: Element | null | undefined) =>
      [...(row?.querySelectorAll('th, td') ?? [])].map((c) => c.textContent?.trim());
    const rows = orders?.querySelectorAll('tbody tr');
    expect(cells(rows?.[0])).toEqual(['Wed, Mar 11, 2026 · 1 order', '$7.46', '—', '—', '$24.99']);
    expect(cells(rows?.[1])).toEqual(['9:00 AM', 'Dal × 2, Rice', '$2.99', '$7.46', '—', '—', '$24.99']);
    const months = container.querySelector('table[aria-label="Totals per month"]');
    expect(cells(months?.querySelector('tbody tr'))).toEqual(['March 2026', '1', '—', '—', '$24.99']);
    const download = [...container.querySelectorAll('a')].find((a) => a.textContent === 'Download CSV');
    expect(download?.getAttribute('href')).toBe('/api/kitchen/earnings.csv?from=2025-04-01&to=2026-03-15');
    expect(download?.hasAttribute('download')).toBe(true);
  });
});
