import { Center, Loader } from '@mantine/core';
import { createBrowserRouter } from 'react-router';
import { paths } from '../shared/paths.js';
import { CartOutlet } from './cart/cart-outlet.js';
import { KitchenMenuPage } from './pages/kitchen-menu-page.js';
import { LandingPage } from './pages/landing-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { RouteErrorPage } from './pages/route-error-page.js';

/** Pages other than the landing page load on demand, so the first view stays small. */
export const router = createBrowserRouter([
  {
    element: <CartOutlet />,
    errorElement: <RouteErrorPage />,
    // Shown for the moment a lazily loaded page's code arrives on first entry.
    HydrateFallback: () => null,
    children: [
      { path: paths.home.pattern, element: <LandingPage /> },
      {
        path: paths.adminSignIn.pattern,
        lazy: async () => ({
          Component: (await import('./kitchen-admin/admin-sign-in-page.js')).AdminSignInPage,
        }),
      },
      {
        path: paths.kitchenRegister.pattern,
        lazy: async () => ({
          Component: (await import('./kitchen-registration/kitchen-register-page.js')).KitchenRegisterPage,
        }),
      },
      {
        path: paths.menuDashboard.pattern,
        lazy: async () => ({
          Component: (await import('./kitchen-menu/menu-dashboard-page.js')).MenuDashboardPage,
        }),
      },
      {
        path: paths.kitchenOrders.pattern,
        lazy: async () => ({
          Component: (await import('./kitchen-orders/kitchen-orders-page.js')).KitchenOrdersPage,
        }),
      },
      {
        path: paths.kitchenMenu.pattern,
        // Where a kitchen card leads, and where shared links land: part of the first bundle, no extra round trip.
        Component: KitchenMenuPage,
      },
      {
        path: paths.customerSignIn.pattern,
        lazy: async () => ({
          Component: (await import('./pages/customer-sign-in-page.js')).CustomerSignInPage,
        }),
      },
      {
        path: paths.shoppingCart.pattern,
        lazy: async () => ({ Component: (await import('./pages/shopping-cart-page.js')).ShoppingCartPage }),
      },
      {
        path: paths.customerOrderStatus.pattern,
        lazy: async () => ({
          Component: (await import('./pages/customer-order-status-page.js')).CustomerOrderStatusPage,
        }),
      },
      {
        path: paths.customerOrders.pattern,
        lazy: async () => ({
          Component: (await import('./pages/customer-orders-page.js')).CustomerOrdersPage,
        }),
      },
      {
        path: paths.chatroom.pattern,
        lazy: async () => ({ Component: (await import('./chat/chat-page.js')).ChatPage }),
        hydrateFallbackElement: (
          <Center h="100vh">
            <Loader aria-label="Loading the chat" />
          </Center>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
