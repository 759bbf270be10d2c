import { Center } from '@mantine/core';
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '../shared/paths.js';
import { CartOutlet } from './cart/cart-outlet.js';
import { loadLaterStyles } from './load-later-styles.js';
import { KitchenMenuPage } from './pages/kitchen-menu-page.js';
import { LandingPage } from './pages/landing-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { RouteErrorPage } from './pages/route-error-page.js';
import { Spinner } from './lib/spinner.js';
import { t } from './i18n.js';

/**
 * A page loaded on demand, with the styles of the components it may use (asked for first, so they precede the
 * page's own styles in the document).
 */
const lazyPage = (load: () => Promise<ComponentType>) => async () => {
  const styles = loadLaterStyles();
  const Component = await load();
  await styles;
  return { Component };
};

/** Shown while the chat's code arrives (a component: its text is translated when it renders). */
function ChatFallback() {
  return (
    <Center h="100vh">
      <Spinner label={t('Loading the chat')} />
    </Center>
  );
}

/**
 * Every page. Pages other than the landing page and a kitchen's menu load on demand, so the first view stays small;
 * those two are also rendered on the server (src/web/ssr-entry.tsx) from these same routes.
 */
export const routes: RouteObject[] = [
  {
    element: <CartOutlet />,
    errorElement: <RouteErrorPage />,
    // Shown for the moment a lazily loaded page's code arrives on first entry.
    HydrateFallback: () => null,
    children: [
      { path: paths.home.pattern, element: <LandingPage /> },
      {
        path: paths.adminSignIn.pattern,
        lazy: lazyPage(async () => (await import('./kitchen-admin/admin-sign-in-page.js')).AdminSignInPage),
      },
      {
        path: paths.kitchenRegister.pattern,
        lazy: lazyPage(
          async () => (await import('./kitchen-registration/kitchen-register-page.js')).KitchenRegisterPage,
        ),
      },
      {
        path: paths.menuDashboard.pattern,
        lazy: lazyPage(async () => (await import('./kitchen-menu/menu-dashboard-page.js')).MenuDashboardPage),
      },
      {
        path: paths.kitchenOrders.pattern,
        lazy: lazyPage(
          async () => (await import('./kitchen-orders/kitchen-orders-page.js')).KitchenOrdersPage,
        ),
      },
      {
        path: paths.earnings.pattern,
        lazy: lazyPage(async () => (await import('./earnings/earnings-page.js')).EarningsPage),
      },
      {
        path: paths.kitchenMenu.pattern,
        // Where a kitchen card leads, and where shared links land: part of the first bundle, no extra round trip.
        Component: KitchenMenuPage,
      },
      {
        path: paths.customerSignIn.pattern,
        lazy: lazyPage(async () => (await import('./pages/customer-sign-in-page.js')).CustomerSignInPage),
      },
      {
        path: paths.shoppingCart.pattern,
        lazy: lazyPage(async () => (await import('./pages/shopping-cart-page.js')).ShoppingCartPage),
      },
      {
        path: paths.customerOrderStatus.pattern,
        lazy: lazyPage(
          async () => (await import('./pages/customer-order-status-page.js')).CustomerOrderStatusPage,
        ),
      },
      {
        path: paths.customerOrders.pattern,
        lazy: lazyPage(async () => (await import('./pages/customer-orders-page.js')).CustomerOrdersPage),
      },
      {
        path: paths.chatroom.pattern,
        lazy: lazyPage(async () => (await import('./chat/chat-page.js')).ChatPage),
        hydrateFallbackElement: <ChatFallback />,
      },
      {
        path: paths.operator.pattern,
        lazy: lazyPage(async () => (await import('./pages/operator-page.js')).OperatorPage),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** The browser's router over `routes`. */
export const createAppRouter = () => createBrowserRouter(routes);
