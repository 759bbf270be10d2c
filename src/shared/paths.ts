/** Every route of the app, spelled once. `href` builds a link; `pattern` is what the router matches. */
export const paths = {
  home: { pattern: '/', href: () => '/' },
  adminSignIn: { pattern: '/AdminSignIn', href: () => '/AdminSignIn' },
  kitchenRegister: { pattern: '/KitchenRegister', href: () => '/KitchenRegister' },
  menuDashboard: { pattern: '/MenuDashboard', href: () => '/MenuDashboard' },
  kitchenOrders: { pattern: '/KitchenOrders', href: () => '/KitchenOrders' },
  earnings: { pattern: '/Earnings', href: () => '/Earnings' },
  insights: { pattern: '/Insights', href: () => '/Insights' },
  kitchenRules: { pattern: '/KitchenRules', href: () => '/KitchenRules' },
  kitchenMenu: {
    pattern: '/KitchenMenu/:id',
    href: (uid: string) => `/KitchenMenu/${encodeURIComponent(uid)}`,
  },
  customerSignIn: { pattern: '/CustomerSignIn', href: () => '/CustomerSignIn' },
  shoppingCart: { pattern: '/ShoppingCart', href: () => '/ShoppingCart' },
  customerOrderStatus: { pattern: '/CustomerOrderStatus', href: () => '/CustomerOrderStatus' },
  customerOrders: { pattern: '/CustomerOrders', href: () => '/CustomerOrders' },
  chatroom: { pattern: '/Chatroom', href: () => '/Chatroom' },
  operator: { pattern: '/Operator', href: () => '/Operator' },
} as const;

/** The app's client-side routes, for the server's history fallback. */
export const appRoutePatterns = Object.values(paths).map((p) => p.pattern);
