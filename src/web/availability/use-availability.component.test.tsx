// @vitest-environment happy-dom
import { act, type ReactElement } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KitchenClock } from '../../shared/opening-hours-rules.js';
import { setRenderInstant, startHydration } from '../ssr/render-instant.js';
import { collectAvailability } from './collect-availability.js';
import { rememberAvailability } from './known-availability.js';
import { useAvailability, useMinuteTick } from './use-availability.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const rendered = vi.fn();
function Hours({ kitchen }: { kitchen: KitchenClock }) {
  const state = useAvailability(kitchen);
  rendered(state.label);
  return <p>{state.label}</p>;
}

// Open 10:00 AM - 8:15 PM in London (the spec's hours); Tuesday 24 November 2026.
const london: KitchenClock = { hours: null, timeZone: 'Europe/London', pausedAt: null, pausedUntil: null };
let root: Root | undefined;

afterEach(() => {
  act(() => root?.unmount());
  vi.useRealTimers();
});

/** The page as the server renders it at `now` and the browser hydrates it, its clock `later`. */
async function hydrateAt(now: string, later: string, app: ReactElement = <Hours kitchen={london} />) {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(new Date(now));
  setRenderInstant(Date.now());
  const [html, clocks] = collectAvailability(() => renderToString(app));
  setRenderInstant(undefined);
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const pageData = JSON.parse(JSON.stringify({ now: Date.parse(now), clocks })) as {
    now: number;
    clocks: typeof clocks;
  };
  vi.setSystemTime(new Date(later));
  rendered.mockClear();
  rememberAvailability(pageData.clocks);
  startHydration(pageData.now);
  await act(async () => {
    root = hydrateRoot(container, app);
  });
  setRenderInstant(undefined);
  return container;
}

describe("a server-rendered page's 'Open now'", () => {
  it('is not rendered again after hydration while it holds, and turns to closed by itself when it ends', async () => {
    const page = await hydrateAt('2026-11-24T20:10:00Z', '2026-11-24T20:14:00Z');
    expect(page.textContent).toBe('Open now');
    expect(rendered.mock.calls).toEqual([['Open now']]);
    // Each timer is set by an effect of the render before it: one act each.
    for (let i = 0; i < 3; i++)
      await act(async () => {
        await vi.advanceTimersByTimeAsync(30_000);
      });
    expect(page.textContent).toBe('Closed · opens Wed 10:00 AM');
  });

  it("moves to the browser's clock when it no longer holds there (a page read after closing time)", async () => {
    const page = await hydrateAt('2026-11-24T20:10:00Z', '2026-11-24T20:20:00Z');
    expect(page.textContent).toBe('Closed · opens Wed 10:00 AM');
    expect(rendered.mock.calls).toEqual([['Open now'], ['Closed · opens Wed 10:00 AM']]);
  });
});

function Tick({ on }: { on: boolean }) {
  const now = useMinuteTick(on);
  rendered(now);
  return <p>{new Date(now).toISOString()}</p>;
}

describe("the landing page's minute tick ('Open now' filtering)", () => {
  it('is not moved, nor rendered again, after hydration while nobody reads it', async () => {
    const page = await hydrateAt('2026-11-24T20:10:00Z', '2026-11-24T20:14:00Z', <Tick on={false} />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(120_000);
    });
    expect(rendered).toHaveBeenCalledTimes(1);
    expect(page.textContent).toBe('2026-11-24T20:10:00.000Z');
  });

  it("moves to the browser's clock at once when on, then every half minute", async () => {
    const page = await hydrateAt('2026-11-24T20:10:00Z', '2026-11-24T20:14:00Z', <Tick on />);
    expect(page.textContent).toBe('2026-11-24T20:14:00.000Z');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(page.textContent).toBe('2026-11-24T20:14:30.000Z');
  });

  it('catches up at once when turned on later', async () => {
    const page = await hydrateAt('2026-11-24T20:10:00Z', '2026-11-24T20:14:00Z', <Tick on={false} />);
    vi.setSystemTime(new Date('2026-11-24T20:20:00Z'));
    await act(async () => root?.render(<Tick on />));
    expect(page.textContent).toBe('2026-11-24T20:20:00.000Z');
  });
});
