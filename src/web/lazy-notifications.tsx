import { notificationsStore } from '@mantine/notifications';
import { lazy, Suspense, useEffect, useState } from 'react';

// Toasts come from a store, so the component that shows them can load when there is one to show: a toast raised
// before it arrives is shown as soon as it mounts. The first view (the landing page, a kitchen's menu) raises none,
// so its transitions, portal and scroll lock are not part of it.
const Notifications = lazy(async () => {
  // The toast's own styles (its close button and loader are the first view's), then the container's.
  await import('@mantine/core/styles/Notification.css');
  await import('@mantine/notifications/styles.css');
  const module = await import('./toasts-container.js');
  return { default: module.Notifications };
});

const hasToasts = () => {
  const { notifications, queue } = notificationsStore.getState();
  return notifications.length > 0 || queue.length > 0;
};

export function LazyNotifications() {
  // Not hasToasts() here: the server renders none, and the first render must match its HTML.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    if (hasToasts()) {
      setReady(true);
      return;
    }
    return notificationsStore.subscribe(() => {
      if (hasToasts()) setReady(true);
    });
  }, [ready]);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      {/* In the corner where lines start: the right in English, the left in Arabic (right to left). */}
      <Notifications position={document.documentElement.dir === 'rtl' ? 'top-left' : 'top-right'} />
    </Suspense>
  );
}
