// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const KEY = `B${'A'.repeat(85)}E`;
const DEVICE_ID = '00000000-0000-4000-8000-0000000000d1';
const ENDPOINT = 'https://push.example/device-1';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** A browser with the Push API (or without), a server with `key`, and what the page asked of both. */
function browser({
  userAgent = CHROME,
  permission = 'default' as NotificationPermission,
  key = KEY as string | null,
  push = true,
} = {}) {
  const calls: { method: string; url: string; body?: unknown }[] = [];
  let subscription: { endpoint: string } | null = null;
  const unsubscribe = vi.fn(async () => {
    subscription = null;
    return true;
  });
  const subscribe = vi.fn(async (options: { applicationServerKey: Uint8Array }) => {
    subscription = {
      endpoint: ENDPOINT,
      options,
      toJSON: () => ({ endpoint: ENDPOINT, keys: { p256dh: 'p', auth: 'a' } }),
      unsubscribe,
    } as { endpoint: string };
    return subscription;
  });
  const registration = { pushManager: { subscribe, getSubscription: async () => subscription } };
  Object.defineProperty(navigator, 'userAgent', { value: userAgent, configurable: true });
  Object.defineProperty(navigator, 'maxTouchPoints', {
    value: userAgent === IPHONE ? 5 : 0,
    configurable: true,
  });
  if (push) {
    Object.defineProperty(navigator, 'serviceWorker', {
      value: { register: vi.fn(async () => registration), ready: Promise.resolve(registration) },
      configurable: true,
    });
    vi.stubGlobal('PushManager', class {});
  }
  const notification = Object.assign(function Notification() {}, {
    permission,
    requestPermission: vi.fn(async () => {
      notification.permission = 'granted';
      return 'granted';
    }),
  });
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, ...(init.body ? { body: JSON.parse(String(init.body)) as unknown } : {}) });
      if (url === '/api/notifications/push-key') return Response.json({ publicKey: key });
      if (method === 'POST')
        return Response.json(
          { id: DEVICE_ID, name: 'Chrome on Linux', createdAt: new Date().toISOString() },
          {
            status: 201,
          },
        );
      return new Response(null, { status: 204 });
    }),
  );
  return { calls, subscribe, unsubscribe };
}

describe('<PushButton />', () => {
  let root: Root | undefined;
  let container: HTMLElement;

  const show = async (props: { as?: 'customer' | 'kitchen'; intro?: string } = {}) => {
    // Each test its own module: the service worker's registration and the server's key are kept per page.
    vi.resetModules();
    const { PushButton } = await import('./push-button.js');
    await act(async () => {
      root = createRoot(container);
      root.render(
        <MantineProvider>
          <PushButton {...props} />
        </MantineProvider>,
      );
    });
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
  };
  const button = (name: string) =>
    [...container.querySelectorAll('button')].find((b) => b.textContent?.includes(name));
  const click = async (name: string) => {
    const target = button(name);
    if (!target) throw new Error(`no button ${name} in ${container.textContent}`);
    await act(async () => target.click());
    await vi.waitFor(() => expect(container.querySelector('[data-loading]')).toBeNull());
  };

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    localStorage.clear();
  });
  afterEach(() => {
    act(() => root?.unmount());
    container.remove();
    vi.unstubAllGlobals();
    for (const property of ['serviceWorker', 'userAgent', 'maxTouchPoints'])
      Reflect.deleteProperty(navigator, property);
  });

  it('on an iPhone in Safari, says to add the app to the Home Screen first', async () => {
    browser({ userAgent: IPHONE, push: false });
    await show({ intro: 'Get told when your order moves' });
    expect(container.textContent).toContain('Get told when your order moves');
    expect(container.textContent).toContain(
      'On iPhone, add HomeCooked to your Home Screen first (Share → Add to Home Screen), then allow notifications there.',
    );
    expect(button('Allow')).toBeUndefined();
  });

  it('shows nothing where the browser has no push, or the server sends none', async () => {
    const nothing = () => {
      expect(container.querySelectorAll('button, p')).toHaveLength(0);
      expect(container.textContent).not.toContain('Get told');
    };
    browser({ push: false });
    await show({ intro: 'Get told' });
    nothing();
    act(() => root?.unmount());
    browser({ key: null });
    await show({ intro: 'Get told' });
    nothing();
  });

  it('subscribes with the server’s key and tells the server, for its session; turns off again', async () => {
    const { calls, subscribe, unsubscribe } = browser();
    await show({ as: 'customer' });
    await click('Allow notifications on this device');
    await vi.waitFor(() => expect(container.textContent).toContain('Notifications are on for this device'));
    const [options] = subscribe.mock.calls[0] ?? [];
    expect(options).toMatchObject({ userVisibleOnly: true });
    expect(options?.applicationServerKey).toHaveLength(65);
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([
      {
        method: 'POST',
        url: '/api/notifications/push-subscriptions?as=customer',
        body: { endpoint: ENDPOINT, keys: { p256dh: 'p', auth: 'a' } },
      },
    ]);

    await click('Turn off on this device');
    await vi.waitFor(() => expect(button('Allow notifications on this device')).toBeDefined());
    expect(calls.at(-1)).toEqual({
      method: 'DELETE',
      url: `/api/notifications/push-subscriptions/${DEVICE_ID}?as=customer`,
    });
    expect(unsubscribe).toHaveBeenCalledOnce();
  });

  it('offers notifications once the service worker can be fetched again, without the page being opened again', async () => {
    browser();
    const { register } = navigator.serviceWorker as unknown as { register: ReturnType<typeof vi.fn> };
    const working = register.getMockImplementation();
    // The server is away as the page opens: the browser cannot fetch the worker's script.
    register.mockRejectedValue(
      new TypeError(
        'Failed to register a ServiceWorker: An unknown error occurred when fetching the script.',
      ),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    try {
      await show();
      expect(button('Allow notifications on this device')).toBeUndefined();
      // Back: the next look (after the first wait) finds it.
      if (working) register.mockImplementation(working);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2_000);
      });
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(button('Allow notifications on this device')).toBeDefined());
    expect(register).toHaveBeenCalledTimes(2);
  });

  it('says so when the browser blocks notifications for the site', async () => {
    browser({ permission: 'denied' });
    await show();
    expect(container.textContent).toContain('Notifications are blocked for this site');
    expect(button('Allow')).toBeUndefined();
  });
});
