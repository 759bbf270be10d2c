import { MantineContext, MantineThemeProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect, type ContextType, type ReactNode } from 'react';
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
 * What Mantine's components read from their provider, as `MantineProvider` would give it with the app's settings.
 * Its provider is not used: the theme's CSS variables and breakpoint classes are in the stylesheet (vite.config.ts
 * builds them), and the app is light only (`data-mantine-color-scheme="light"` is in index.html), so what else it
 * does (writing the variables, keeping a chosen colour scheme in localStorage and on <html>) would be script on
 * every first view for nothing: 2.2 KiB of it compressed (issue 32).
 */
export const MANTINE: NonNullable<ContextType<typeof MantineContext>> = {
  colorScheme: 'light',
  setColorScheme: () => undefined,
  clearColorScheme: () => undefined,
  getRootElement: () => document.documentElement,
  classNamesPrefix: 'mantine',
  cssVariablesSelector: ':root',
  withStaticClasses: true,
};

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
      <MantineContext value={MANTINE}>
        <MantineThemeProvider theme={theme}>
          <LazyNotifications />
          <QueryClientProvider client={queryClient}>
            {children}
            <EndOfHydration onHydrated={onHydrated} />
          </QueryClientProvider>
        </MantineThemeProvider>
      </MantineContext>
    </StrictMode>
  );
}

export const createQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
