import { lazy, Suspense, useEffect, useState } from 'react';

// Toasts come from a store, so the component that shows them can load after the first view: a toast raised
// before it arrives is shown as soon as it mounts. This keeps its transitions and portal out of the first bundle.
const Notifications = lazy(async () => {
  // The toast's own styles (its close button and loader are the first view's), then the container's.
  await import('@mantine/core/styles/Notification.css');
  await import('@mantine/notifications/styles.css');
  const module = await import('@mantine/notifications');
  return { default: module.Notifications };
});

export function LazyNotifications() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const id = window.setTimeout(() => setReady(true), 0);
    return () => window.clearTimeout(id);
  }, []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" />
    </Suspense>
  );
}
