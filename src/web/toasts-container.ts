// The toasts' container, loaded by lazy-notifications.tsx when there is a toast to show. Imported from a module of
// its own: imported from '@mantine/notifications' there, it would join the first view's bundle, which imports that
// package's store.
export { Notifications } from '@mantine/notifications';
