// The one script in index.html (put there by vite.config.ts's paintFirst plugin). A server-rendered page is complete
// as HTML and CSS: it paints first, then the app is fetched and run, and hydrates it. Fetched and run earlier, the
// app's download and evaluation would compete with that first view on a slow phone. A page rendered in the browser
// has nothing to show before the app runs: it starts at once (its HTML has already asked for the app's modules).

import type { PAGE_DATA_ID as SHARED_PAGE_DATA_ID } from '../shared/page-data.js';
import { listenForEarlyInput } from './ssr/early-input.js';

/** The app's module files, each after those it imports, its entry last. */
const modules = document.getElementById('app-boot')?.dataset.modules?.split(' ') ?? [];
if (modules.length === 0) throw new Error('#app-boot names no app module');

/** Lets the browser paint and handle input between two pieces of work (a hidden tab has neither to do). */
const nextTask = () =>
  document.visibilityState === 'hidden'
    ? Promise.resolve()
    : new Promise((resolve) => setTimeout(resolve, 0));

/** When the app could not be loaded (a new version deployed meanwhile, a dropped connection): once a minute. */
const RELOADED_AT = 'homecooked.boot-reloaded-at';

async function run() {
  // All fetched side by side, ...
  for (const href of modules) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  // ... then run one file per task: in one go, the whole app's evaluation is one long task on a slow phone.
  for (const href of modules) {
    // A link followed meanwhile: the browser is loading that page, which the app would cut short.
    if (window.earlyInput?.leaving) return;
    await import(/* @vite-ignore */ href);
    await nextTask();
  }
}

let started = false;
function start() {
  if (started) return;
  started = true;
  run().catch((error: unknown) => {
    // Offline (a failed module stays failed in this page): loaded again once back online.
    if (!navigator.onLine) {
      window.addEventListener('online', () => location.reload(), { once: true });
      return;
    }
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last > 60_000) {
      sessionStorage.setItem(RELOADED_AT, String(Date.now()));
      location.reload();
    } else console.error('The app could not be loaded', error);
  });
}

// Not 'page-data' from src/shared/page-data.ts: importing it would cost this script a second request. The type
// keeps the two the same.
const PAGE_DATA_ID: typeof SHARED_PAGE_DATA_ID = 'page-data';
if (!document.getElementById(PAGE_DATA_ID)) start();
else {
  // Taps and typing meanwhile are the app's once it is there.
  window.earlyInput = listenForEarlyInput();
  // A hidden tab paints nothing: it starts at once, or as soon as it is hidden.
  if (document.visibilityState === 'hidden') start();
  else {
    afterFirstPaint(start);
    document.addEventListener('visibilitychange', start, { once: true });
  }
}

/**
 * Once the page's first paint with content is on the screen. The frame that paints is drawn a moment before it is
 * shown: started after the frame alone (an animation frame, then a timer), the app's modules were asked for before
 * the paint was shown in 3 of 10 Lighthouse runs, and their bytes counted as the first paint's: a second later on a
 * slow phone's network (LCP 1.9 s against 1.0; 10 of 10 at 1.0 since). Where the browser does not report paints,
 * after the frame; and after 3 s whatever happened, not to wait for a paint that is never reported.
 */
function afterFirstPaint(then: () => void) {
  if (!PerformanceObserver.supportedEntryTypes.includes('paint')) {
    requestAnimationFrame(() => setTimeout(then, 0));
    return;
  }
  const fallback = setTimeout(then, 3000);
  const observer = new PerformanceObserver((entries) => {
    if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    clearTimeout(fallback);
    setTimeout(then, 0);
  });
  observer.observe({ type: 'paint', buffered: true });
}
