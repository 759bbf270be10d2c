/** Names of the live topics; each is a list some screen shows. */
export const topics = {
  kitchens: () => 'kitchens',
  menu: (kitchenUid: string) => `menu:${kitchenUid}`,
  kitchenOrders: (kitchenUid: string) => `orders:${kitchenUid}`,
  customerOrder: (customerId: string) => `order:${customerId}`,
  chat: () => 'chat',
};
