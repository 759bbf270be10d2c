// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TopicListener } from './tab-stream.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** The tab's stream as the hook sees it: the test hands the followers their snapshots and refusals. */
const followers = new Map<string, TopicListener>();
/** The version each follow said the tab holds. */
const helds: unknown[] = [];
vi.mock('./tab-stream.js', () => ({
  tabStream: {
    follow: (url: string, listener: TopicListener, held?: unknown) => {
      followers.set(url, listener);
      helds.push(held);
      return () => followers.delete(url);
    },
    isLive: () => true,
  },
}));
const { useLiveQuery, rememberPageVersions } = await import('./use-live-query.js');

const URL = '/api/kitchens/first-page';
const rendered = vi.fn();
function Names() {
  // Spread as the landing page's list is (use-kitchens.ts): every field of the result is read, `dataUpdatedAt` too.
  const query = { ...useLiveQuery<{ names: string[] }>({ queryKey: ['kitchens'], url: URL }) };
  rendered(query.data?.names.join(', '), query.isError);
  return <p>{query.isError ? 'refused' : query.data?.names.join(', ')}</p>;
}

let root: Root | undefined;
let queryClient: QueryClient;
let page: HTMLElement;

const renderNames = () =>
  act(async () => {
    root = createRoot(page);
    root.render(
      <QueryClientProvider client={queryClient}>
        <Names />
      </QueryClientProvider>,
    );
  });

beforeEach(async () => {
  followers.clear();
  helds.length = 0;
  rendered.mockClear();
  // What a server-rendered page's data puts in the cache before the app renders.
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['kitchens'], { names: ['Dal', 'Pho'] });
  page = document.createElement('div');
  document.body.append(page);
  await renderNames();
});

afterEach(() => {
  act(() => root?.unmount());
  page.remove();
});

/** Whatever `send` changes, rendered: the query's observers hear of it on a later task. */
const settled = (send: () => void) =>
  act(async () => {
    send();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
const snapshot = (data: unknown) => settled(() => followers.get(URL)?.snapshot(data));

describe('a live query', () => {
  it("is not rendered again for a snapshot that holds what it already has (the page's first)", async () => {
    expect(followers.has(URL)).toBe(true);
    rendered.mockClear();
    await snapshot({ names: ['Dal', 'Pho'] });
    expect(rendered).not.toHaveBeenCalled();
    await snapshot({ names: ['Dal', 'Pho', 'Suya'] });
    expect(page.textContent).toBe('Dal, Pho, Suya');
    expect(rendered).toHaveBeenLastCalledWith('Dal, Pho, Suya', false);
  });

  it('leaves a refusal for the same data as before once the stream serves the topic again', async () => {
    await settled(() => followers.get(URL)?.gone({ topic: URL, status: 403, message: 'Suspended' }, 'ended'));
    expect(page.textContent).toBe('refused');
    await snapshot({ names: ['Dal', 'Pho'] });
    expect(page.textContent).toBe('Dal, Pho');
  });

  it("tells the stream the version the page's data is, on its first follow only", async () => {
    expect(helds).toEqual([undefined]);
    act(() => root?.unmount());
    // What main.tsx does with a server-rendered page's data (PageData.versions, by query hash).
    rememberPageVersions({ '["kitchens"]': 'v1', '["menu","k"]': 'm1' });
    await renderNames();
    expect(helds.at(-1)).toEqual({ etag: 'v1', data: { names: ['Dal', 'Pho'] } });
    // Followed again later (another visit of the page): the cache may hold another version by then.
    act(() => root?.unmount());
    await renderNames();
    expect(helds.at(-1)).toBeUndefined();
  });
});
