import { useRef, useSyncExternalStore } from 'react';

/**
 * Whether a finger or mouse button is down on the page, from its press until the tap it makes has been handled.
 *
 * A live list that changes under a press moves what was pressed: a kitchen added at the top shifts every card, and
 * the press lands on one card and its release on another (the browser then clicks neither), or a cook's tap on
 * 'Accept' lands on the order that slid into its place. Lists shown while a press is down hold still until it ends.
 */
let pressed = false;
const listeners = new Set<() => void>();
let releaseTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * How long after a release its click may come: a mouse's click follows in the same task, a tap's a moment later
 * (a released press that clicks nothing, dragged off its target, ends then too).
 */
const CLICK_AFTER_RELEASE_MS = 300;

function set(value: boolean) {
  clearTimeout(releaseTimer);
  if (pressed === value) return;
  pressed = value;
  for (const listener of listeners) listener();
}

/**
 * Listens from the moment the app's code is loaded, before it takes over a server-rendered page (a press begun
 * before that is known from the page's early input, src/web/ssr/early-input.ts), so a press made while the app
 * starts and its streams connect counts too.
 */
function listen() {
  if (typeof document === 'undefined') return;
  pressed = window.earlyInput?.pressing ?? false;
  document.addEventListener(
    'pointerdown',
    (event) => {
      if (event.isPrimary) set(true);
    },
    true,
  );
  document.addEventListener(
    'pointerup',
    (event) => {
      if (!event.isPrimary || !pressed) return;
      clearTimeout(releaseTimer);
      releaseTimer = setTimeout(() => set(false), CLICK_AFTER_RELEASE_MS);
    },
    true,
  );
  // After the click's own handlers: what it asked for is rendered from the list it was aimed at.
  document.addEventListener(
    'click',
    () => {
      clearTimeout(releaseTimer);
      if (pressed) releaseTimer = setTimeout(() => set(false), 0);
    },
    true,
  );
  // The browser took the gesture over (a scroll), or the window lost focus: nothing will be clicked.
  document.addEventListener('pointercancel', () => set(false), true);
  window.addEventListener('blur', () => set(false));
}
listen();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const isPressed = () => pressed;
const notPressedOnServer = () => false;

/**
 * `value` as it was when the current press began, while one is down; `value` itself otherwise. For what a live
 * stream changes under the visitor's finger: the list of kitchens, a menu's dishes, a kitchen's orders.
 */
export function useSteadyWhilePressed<T>(value: T): T {
  const down = useSyncExternalStore(subscribe, isPressed, notPressedOnServer);
  const steady = useRef(value);
  // What was rendered last while nothing was pressed (a render React drops leaves a value newer still: harmless).
  if (!down) steady.current = value;
  return steady.current;
}
