import { z } from 'zod';
import { requiredText } from './fields.js';

/** Spelt so, per the spec: the status of every new order. */
export const INITIAL_ORDER_STATUS = 'recieved';
export const MAX_ITEMS_PER_ORDER = 50;
/** An order's total may be at most $10,000.00: far above any home-cooked meal, far below the columns' range. */
export const MAX_ORDER_TOTAL_CENTS = 1_000_000;
/** The error code of a reused idempotency key with a different order (422, as payment APIs answer). */
export const IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED';

export const OrderLine = z.object({ item: z.string(), priceCents: z.number().int() });
export type OrderLine = z.infer<typeof OrderLine>;

/** An order as its kitchen sees it on /KitchenOrders. */
export const KitchenOrder = z.object({
  id: z.string().uuid(),
  customerEmail: z.string(),
  customerAddress: z.string(),
  status: z.string(),
  items: z.array(OrderLine),
  totalCents: z.number().int(),
  createdAt: z.string(),
});
export type KitchenOrder = z.infer<typeof KitchenOrder>;
export const KitchenOrderList = z.array(KitchenOrder);

/** A customer's own open order, as /CustomerOrderStatus shows it. */
export const CustomerOrder = z.object({
  id: z.string().uuid(),
  kitchenUid: z.string().uuid(),
  kitchenName: z.string(),
  status: z.string(),
  address: z.string(),
  items: z.array(OrderLine),
  itemsCents: z.number().int(),
  deliveryFeeCents: z.number().int(),
  feesAndTaxCents: z.number().int(),
  totalCents: z.number().int(),
  createdAt: z.string(),
});
export type CustomerOrder = z.infer<typeof CustomerOrder>;

/**
 * What the browser sends to place an order: only ids and the address. Names, prices, fees and the total are
 * taken from the database by the server. The idempotency key makes a retried submit place one order.
 */
export const PlaceOrderInput = z.object({
  kitchenUid: z.string({ error: 'Kitchen is required' }).uuid('Kitchen must be a kitchen id'),
  itemIds: z
    .array(z.string().uuid('Each item must be a menu item id'), { error: 'Items are required' })
    .min(1, 'Your cart is empty')
    .max(MAX_ITEMS_PER_ORDER, `At most ${MAX_ITEMS_PER_ORDER} items per order`),
  address: requiredText('Delivery address', 300),
  /** Where the address is, when it was picked from the suggestions (a typed address has no coordinates). */
  location: z
    .object(
      {
        lat: z.number({ error: 'Latitude must be a number' }).min(-90).max(90),
        lon: z.number({ error: 'Longitude must be a number' }).min(-180).max(180),
      },
      { error: 'Location must be {lat, lon}' },
    )
    .optional(),
  idempotencyKey: z
    .string({ error: 'Idempotency key is required' })
    .regex(/^[A-Za-z0-9_-]{8,100}$/, 'Idempotency key must be 8-100 letters, digits, - or _'),
});
export type PlaceOrderInput = z.infer<typeof PlaceOrderInput>;

export const UpdateOrderStatusInput = z.object({ status: requiredText('Status', 60) });
export type UpdateOrderStatusInput = z.infer<typeof UpdateOrderStatusInput>;

export const OrderParams = z.object({ id: z.string().uuid('Order id must be a uuid') });
