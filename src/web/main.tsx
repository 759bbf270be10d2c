import './mantine-styles.js';
import { messagesReady } from './i18n.js';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { PAGE_DATA_ID, type PageData } from '../shared/page-data.js';
import { AppRoot, createQueryClient } from './app-root.js';
import { seedQueryCache } from './ssr/seed-query-cache.js';
import { AppRoutes, routes } from './app-router.js';
import { BrowserRouter } from './router/router.js';
import { startHydration } from './ssr/render-instant.js';
import { rememberAvailability } from './availability/known-availability.js';
import { rememberPageVersions } from './live/use-live-query.js';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
const queryClient = createQueryClient();
// A page the server rendered carries the data it was rendered from: the same cache entries and the same instant
// make the first render here identical, so React adopts the HTML instead of replacing it; the live streams then
// take over from that data (their first snapshot is the same list, so nothing moves).
const pageData = document.getElementById(PAGE_DATA_ID)?.textContent;
const data = pageData ? (JSON.parse(pageData) as PageData) : undefined;
if (data) {
  seedQueryCache(queryClient, data.cache);
  rememberPageVersions(data.versions);
  rememberAvailability(data.clocks ?? []);
  startHydration(data.now);
}
function start(root: HTMLElement) {
  // Taps and typing before this point are replayed once hydrated; from here on React hears them (and replays those
  // on parts it has not hydrated yet itself).
  const replayEarlyInput = data ? window.earlyInput?.takeOver(root) : undefined;
  const app = (
    <AppRoot queryClient={queryClient} onHydrated={replayEarlyInput && (() => void replayEarlyInput())}>
      <BrowserRouter routes={routes}>
        <AppRoutes />
      </BrowserRouter>
    </AppRoot>
  );
  // Hydrated as a transition, React yields to the browser every few milliseconds instead of holding the main thread
  // for the whole page (a tap meanwhile is handled, not queued behind it); the page is already on screen.
  if (data) {
    startTransition(() => void hydrateRoot(root, app));
    // The rest of the language's messages (dialogs, other pages), once the page is hydrating.
    void messagesReady();
  } else {
    // A page rendered here shows nothing before its words are here (the shell preloads them).
    void messagesReady().then(() => createRoot(root).render(app));
  }
}

// A link followed before the app was here: the browser is loading that page; the app would only be in its way.
if (!window.earlyInput?.leaving) start(root);
