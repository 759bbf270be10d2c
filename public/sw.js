/*
 * HomeCooked's service worker: notifications with the tab closed, nothing else (no caching, no offline pages).
 * A push carries { title, body, url, tag } (PushPayload in src/shared/notifications.ts); a tap on its
 * notification brings a tab of the app to that page, or opens one.
 */

self.addEventListener('install', () => {
  // Nothing to wait for: a new version takes over at once.
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The push's message; a push that is not ours (or not JSON) still tells that something happened. */
function messageOf(data) {
  let message;
  try {
    message = data ? data.json() : {};
  } catch {
    message = { body: data ? data.text() : '' };
  }
  return {
    title: typeof message.title === 'string' && message.title ? message.title : 'HomeCooked',
    body: typeof message.body === 'string' ? message.body : '',
    tag: typeof message.tag === 'string' ? message.tag : undefined,
    url: typeof message.url === 'string' ? message.url : '/',
  };
}

/** Only a path of this app opens: never another site, whatever a push says. */
function appUrl(url) {
  const target = new URL(url, self.location.origin);
  return target.origin === self.location.origin ? target.href : new URL('/', self.location.origin).href;
}

self.addEventListener('push', (event) => {
  const { title, body, tag, url } = messageOf(event.data);
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      tag,
      // A later notice of the same subject replaces the earlier one, and still rings.
      renotify: Boolean(tag),
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: appUrl(url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = appUrl((event.notification.data && event.notification.data.url) || '/');
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // A tab already on that page, else any tab of the app taken there, else a new one.
      const same = tabs.find((tab) => tab.url === url);
      if (same) return same.focus();
      const any = tabs.find((tab) => new URL(tab.url).origin === self.location.origin && 'navigate' in tab);
      if (any) {
        const focused = await any.focus();
        return focused.navigate(url);
      }
      return self.clients.openWindow(url);
    })(),
  );
});
