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
    children: [
      { path: paths.home.pattern, element: <LandingPage /> },
      { path: paths.adminSignIn.pattern, element: <UnbuiltPage title="Kitchen sign-in" /> },
      { path: paths.kitchenRegister.pattern, element: <UnbuiltPage title="Register your kitchen" /> },
      { path: paths.menuDashboard.pattern, element: <UnbuiltPage title="Menu of your kitchen" /> },
      { path: paths.kitchenOrders.pattern, element: <UnbuiltPage title="Orders of your kitchen" /> },
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
