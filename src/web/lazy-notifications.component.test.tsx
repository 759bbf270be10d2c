// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LazyNotifications } from './lazy-notifications.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('the toasts, loaded when there is one', () => {
  let root: Root;
  let container: HTMLElement;

  beforeEach(() => {
    // happy-dom has no matchMedia, which Mantine's provider asks for the colour scheme.
    window.matchMedia ??= ((query: string) =>
      ({
        matches: false,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList) as typeof window.matchMedia;
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    notifications.clean();
  });

  it('mounts no container until a toast is raised, then shows it', async () => {
    act(() =>
      root.render(
        <MantineProvider>
          <LazyNotifications />
        </MantineProvider>,
      ),
    );
    await act(async () => {});
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();

    // Raised, and the container's module and styles loaded (all within act, so that React commits what arrives).
    await act(async () => {
      notifications.show({ message: 'Thanks, we will look into it' });
      await import('@mantine/core/styles/Notification.css');
      await import('@mantine/notifications/styles.css');
      await import('./toasts-container.js');
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(document.body.textContent).toContain('Thanks, we will look into it');
  });
});
