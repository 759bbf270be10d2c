import { Center } from '@mantine/core';
import type { ComponentType } from 'react';
import { paths } from '../shared/paths.js';
import { CartProvider } from './cart/cart-provider.js';
import { loadLaterStyles } from './load-later-styles.js';
import { KitchenMenuPage } from './pages/kitchen-menu-page.js';
import { LandingPage } from './pages/landing-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { RouteErrorPage } from './pages/route-error-page.js';
import { Spinner } from './lib/spinner.js';
import { t } from './i18n.js';
import { lazyRoute, Routes, type Route } from './router/router.js';

/**
 * A page loaded on demand, with the styles of the components it may use (asked for first, so they precede the
 * page's own styles in the document).
 */
const lazyPage = (load: () => Promise<ComponentType>) => lazyRoute(load, loadLaterStyles);

/** Shown while the chat's code arrives (a component: its text is translated when it renders). */
function ChatFallback() {
  return (
    <Center h="100vh">
      <Spinner label={t('Loading the chat')} />
    </Center>
  );
}

/**
 * Every page, tried in order. Pages other than the landing page and a kitchen's menu load on demand, so the first
 * view stays small; those two are also rendered on the server (src/web/ssr-entry.tsx) from these same routes.
 */
export const routes: readonly Route[] = [
  { path: paths.home.pattern, Component: LandingPage },
  {
    path: paths.adminSignIn.pattern,
    Component: lazyPage(async () => (await import('./kitchen-admin/admin-sign-in-page.js')).AdminSignInPage),
  },
  {
    path: paths.kitchenRegister.pattern,
    Component: lazyPage(
      async () => (await import('./kitchen-registration/kitchen-register-page.js')).KitchenRegisterPage,
    ),
  },
  {
    path: paths.menuDashboard.pattern,
    Component: lazyPage(
      async () => (await import('./kitchen-menu/menu-dashboard-page.js')).MenuDashboardPage,
    ),
  },
  {
    path: paths.kitchenOrders.pattern,
    Component: lazyPage(
      async () => (await import('./kitchen-orders/kitchen-orders-page.js')).KitchenOrdersPage,
    ),
  },
  {
    path: paths.earnings.pattern,
    Component: lazyPage(async () => (await import('./earnings/earnings-page.js')).EarningsPage),
  },
  {
    path: paths.insights.pattern,
    Component: lazyPage(async () => (await import('./insights/insights-page.js')).InsightsPage),
  },
  {
    path: paths.kitchenRules.pattern,
    Component: lazyPage(async () => (await import('./law/kitchen-rules-page.js')).KitchenRulesPage),
  },
  // Where a kitchen card leads, and where shared links land: part of the first bundle, no extra round trip.
  { path: paths.kitchenMenu.pattern, Component: KitchenMenuPage },
  {
    path: paths.customerSignIn.pattern,
    Component: lazyPage(async () => (await import('./pages/customer-sign-in-page.js')).CustomerSignInPage),
  },
  {
    path: paths.shoppingCart.pattern,
    Component: lazyPage(async () => (await import('./pages/shopping-cart-page.js')).ShoppingCartPage),
  },
  {
    path: paths.customerOrderStatus.pattern,
    Component: lazyPage(
      async () => (await import('./pages/customer-order-status-page.js')).CustomerOrderStatusPage,
    ),
  },
  {
    path: paths.customerOrders.pattern,
    Component: lazyPage(async () => (await import('./pages/customer-orders-page.js')).CustomerOrdersPage),
  },
  {
    path: paths.chatroom.pattern,
    Component: lazyPage(async () => (await import('./chat/chat-page.js')).ChatPage),
    fallback: <ChatFallback />,
  },
  {
    path: paths.operator.pattern,
    Component: lazyPage(async () => (await import('./pages/operator-page.js')).OperatorPage),
  },
  { path: '*', Component: NotFoundPage },
];

/** The page for the location, inside the cart every page shares (the same in the browser and on the server). */
export function AppRoutes() {
  return <Routes layout={CartProvider} errorPage={<RouteErrorPage />} />;
}
