import { Center, Loader } from '@mantine/core';
import { createBrowserRouter } from 'react-router';
import { paths } from '../shared/paths.js';
import { LandingPage } from './pages/landing-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { RouteErrorPage } from './pages/route-error-page.js';
import { UnbuiltPage } from './pages/unbuilt-page.js';

/** Pages other than the landing page load on demand, so the first view stays small. */
export const router = createBrowserRouter([
  {
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
          Component: (await import('./kitchen-admin/kitchen-register-page.js')).KitchenRegisterPage,
        }),
      },
      {
        path: paths.menuDashboard.pattern,
        lazy: async () => ({
          Component: (await import('./kitchen-admin/menu-dashboard-page.js')).MenuDashboardPage,
        }),
      },
      {
        path: paths.kitchenOrders.pattern,
        lazy: async () => ({
          Component: (await import('./kitchen-admin/kitchen-orders-page.js')).KitchenOrdersPage,
        }),
      },
      { path: paths.kitchenMenu.pattern, element: <UnbuiltPage title="Full Menu" /> },
      { path: paths.customerSignIn.pattern, element: <UnbuiltPage title="Sign in" /> },
      { path: paths.shoppingCart.pattern, element: <UnbuiltPage title="Shopping Cart" /> },
      { path: paths.customerOrderStatus.pattern, element: <UnbuiltPage title="Order Status" /> },
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
