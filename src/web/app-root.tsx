import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { LazyNotifications } from './lazy-notifications.js';
import { setRenderInstant } from './ssr/render-instant.js';
import { theme } from './theme.js';

/** Once hydrated (this root's effects run last), clocks read the browser's time again. */
function EndOfHydration({ onHydrated }: { onHydrated?: () => void }) {
  useEffect(() => {
    setRenderInstant(undefined);
    onHydrated?.();
    // Once: after the first render, whatever the prop becomes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}

/**
 * The providers around the router, the same in the browser (main.tsx) and on the server (ssr-entry.tsx): a
 * hydrated tree must have the server's shape, or React's generated ids (Mantine's) would differ.
 */
export function AppRoot({
  queryClient,
  onHydrated,
  children,
}: {
  queryClient: QueryClient;
  /** Called once the first render (the hydration of a server-rendered page) has been committed. */
  onHydrated?: () => void;
  children: ReactNode;
}) {
  return (
    <StrictMode>
      {/* The theme's CSS variables and breakpoint classes are in the stylesheet (vite.config.ts builds them). */}
      <MantineProvider theme={theme} withCssVariables={false} withGlobalClasses={false}>
        <LazyNotifications />
        <QueryClientProvider client={queryClient}>
          {children}
          <EndOfHydration onHydrated={onHydrated} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>
  );
}

export const createQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
