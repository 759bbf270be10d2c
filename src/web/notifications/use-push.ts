import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { PushDevice } from '../../shared/notifications.js';
import { api, ApiError } from '../lib/api-client.js';
import { t } from '../i18n.js';

/** Which of the browser's sessions a device is for (one browser may hold a customer's and a kitchen's). */
export type PushAs = 'customer' | 'kitchen';

/**
 * Push notifications on this device: `unavailable` (no Push API here, or the server sends none), `home-screen`
 * (an iPhone or iPad in a Safari tab: push needs the app added to the Home Screen), `denied` (blocked in the
 * browser's settings), `off`, `on`; `checking` until it is known.
 */
export type PushState = 'checking' | 'unavailable' | 'home-screen' | 'denied' | 'off' | 'on';

/** The device this browser registered with the server: its push endpoint, and the server's id for it. */
interface SavedDevice {
  endpoint: string;
  id: string;
  as: PushAs | null;
}
const DEVICE_KEY = 'homecooked:push-device';

function savedDevice(): SavedDevice | undefined {
  try {
    const saved = JSON.parse(localStorage.getItem(DEVICE_KEY) ?? 'null') as SavedDevice | null;
    return saved && typeof saved.endpoint === 'string' && typeof saved.id === 'string' ? saved : undefined;
  } catch {
    return undefined;
  }
}

/** The server's id of this browser's push device, if it has one ('Notifications' lists it as this device). */
export const thisDeviceId = (): string | undefined => savedDevice()?.id;

/** Every hook on the page hears of a change made through any of them (the kitchen's alerts and the button). */
const listeners = new Set<() => void>();
let version = 0;
const changed = () => {
  version++;
  for (const listener of listeners) listener();
};
const subscribeToChanges = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** An iPhone or iPad showing the page in a browser tab (iPadOS says it is a Mac, with a touch screen). */
export function isIosBrowserTab(): boolean {
  const ios =
    /iPhone|iPad|iPod/.test(navigator.userAgent) ||
    (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);
  const standalone =
    (navigator as Navigator & { standalone?: boolean }).standalone === true ||
    window.matchMedia?.('(display-mode: standalone)').matches === true;
  return ios && !standalone;
}

const pushSupported = () =>
  'serviceWorker' in navigator && 'PushManager' in window && typeof Notification === 'function';

/** After a failed look at this device's push state, the first wait before looking again, and the longest. */
export const PUSH_RETRY_FIRST_MS = 2_000;
const PUSH_RETRY_MAX_MS = 60_000;

let registration: Promise<ServiceWorkerRegistration> | undefined;
/** Registers the app's service worker (public/sw.js: it shows pushes and opens their page on a tap), once. */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration> {
  registration ??= navigator.serviceWorker
    .register('/sw.js', { scope: '/' })
    .then(() => navigator.serviceWorker.ready)
    .catch((error: unknown) => {
      registration = undefined;
      throw error;
    });
  return registration;
}

let serverKey: Promise<string | null> | undefined;
/** The server's VAPID public key (null: the server sends no push), asked once. */
function pushKey(): Promise<string | null> {
  serverKey ??= api
    .get<{ publicKey: string | null }>('/api/notifications/push-key')
    .then((answer) => answer.publicKey)
    .catch((error: unknown) => {
      serverKey = undefined;
      throw error;
    });
  return serverKey;
}

function bytesOf(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

const sameBytes = (a: ArrayBuffer | null, b: Uint8Array) =>
  a !== null && a.byteLength === b.length && new Uint8Array(a).every((byte, i) => byte === b[i]);

/** Where this device stands now. */
export async function readPushState(): Promise<PushState> {
  if (isIosBrowserTab()) return 'home-screen';
  if (!pushSupported()) return 'unavailable';
  if (!(await pushKey())) return 'unavailable';
  if (Notification.permission === 'denied') return 'denied';
  const subscription = await (await registerServiceWorker()).pushManager.getSubscription();
  const saved = savedDevice();
  return subscription && Notification.permission === 'granted' && saved?.endpoint === subscription.endpoint
    ? 'on'
    : 'off';
}

const query = (as: PushAs | null) => (as ? `?as=${as}` : '');

/**
 * Turns push on for this device (asking the browser's permission when it has not been given; browsers ask only in
 * answer to a click): subscribes with the server's key and tells the server, for the `as` session. Throws with a
 * message to show when it could not.
 */
export async function turnOnPush(as: PushAs | null = null): Promise<void> {
  try {
    const key = await pushKey();
    if (!key) throw new Error(t('This server sends no push notifications'));
    const permission =
      Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
    if (permission === 'denied')
      throw new Error(t('Notifications are blocked for this site in this browser'));
    if (permission !== 'granted') throw new Error(t('Notifications were not allowed'));
    const { pushManager } = await registerServiceWorker();
    const applicationServerKey = bytesOf(key);
    let subscription = await pushManager.getSubscription();
    // Made with another key (the server's changed): it cannot carry this server's pushes.
    if (subscription && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey })
      .catch((failure: unknown) => {
        // No push service for this browser (a private window, or its service out of reach).
        throw new Error(
          t('This browser could not subscribe ({reason})', { reason: (failure as Error).message }),
        );
      });
    const device = await api.post<PushDevice>(
      `/api/notifications/push-subscriptions${query(as)}`,
      subscription.toJSON(),
    );
    localStorage.setItem(DEVICE_KEY, JSON.stringify({ endpoint: subscription.endpoint, id: device.id, as }));
  } finally {
    changed();
  }
}

/** Turns push off for this device: the server forgets it, and the browser drops its subscription. */
export async function turnOffPush(): Promise<void> {
  try {
    const saved = savedDevice();
    if (saved) {
      try {
        await api.delete(`/api/notifications/push-subscriptions/${saved.id}${query(saved.as)}`);
      } catch (error) {
        // Already gone (removed in 'Notifications', or the push service said so): off all the same.
        if (!(error instanceof ApiError && (error.status === 404 || error.status === 401))) throw error;
      }
      localStorage.removeItem(DEVICE_KEY);
    }
    const subscription = await (await registerServiceWorker()).pushManager.getSubscription();
    await subscription?.unsubscribe();
  } finally {
    changed();
  }
}

/**
 * This device's push notifications, for the `as` session: where they stand, and turning them on or off (`busy`
 * meanwhile; `error` says why the last attempt failed).
 */
export function usePush(as: PushAs | null = null) {
  const [state, setState] = useState<PushState>('checking');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = useSyncExternalStore(
    subscribeToChanges,
    () => version,
    () => 0,
  );
  useEffect(() => {
    let live = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const read = (): void =>
      void readPushState().then(
        (next) => live && setState(next),
        () => {
          if (!live) return;
          setState('unavailable');
          // The server or the network was away (the service worker's script, the key): asked again, less often
          // each time, so that the button comes back without the page being opened again.
          retry = setTimeout(read, Math.min(PUSH_RETRY_MAX_MS, PUSH_RETRY_FIRST_MS * 2 ** failures++));
        },
      );
    read();
    return () => {
      live = false;
      clearTimeout(retry);
    };
  }, [current]);
  const run = useCallback(async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError((failure as Error).message || t('Something went wrong'));
    } finally {
      setBusy(false);
    }
  }, []);
  return {
    state,
    busy,
    error,
    turnOn: () => run(() => turnOnPush(as)),
    turnOff: () => run(turnOffPush),
  };
}
