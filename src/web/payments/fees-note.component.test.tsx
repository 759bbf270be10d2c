// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarketplaceFees } from '../../shared/payments.js';
import { FeesNote } from './fees-note.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("the fees a cook agrees to ('Get paid', sign-up)", () => {
  let root: Root | undefined;
  let container: HTMLElement;

  const show = async (answer: MarketplaceFees) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () => new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await act(async () => {
      root = createRoot(container);
      root.render(
        <MantineProvider>
          <QueryClientProvider client={client}>
            <FeesNote />
          </QueryClientProvider>
        </MantineProvider>,
      );
    });
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    return container.querySelector('[data-testid="fees-note"]')?.textContent;
  };

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
    vi.unstubAllGlobals();
  });

  it('says the next announced change of fees: from which day, and the new commission', async () => {
    const text = await show({
      cardPayments: true,
      commissionPercent: 12.5,
      upcoming: { commissionPercent: 15, effectiveOn: '2027-01-15' },
    });
    expect(text).toContain('the platform keeps 12.5 %');
    expect(text).toContain(
      'From January 15, 2027, the platform will keep 15 % (every cook was told by email).',
    );
  });

  it('says nothing of a change when none is announced', async () => {
    const text = await show({ cardPayments: true, commissionPercent: 12.5, upcoming: null });
    expect(text).toContain('the platform keeps 12.5 %');
    expect(text).not.toContain('From ');
  });
});
