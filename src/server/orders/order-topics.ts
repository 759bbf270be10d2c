import type { CustomerOrder, KitchenOrder } from '../../shared/orders.js';
import { requestSessionHashes, requireUser } from '../identity/sessions.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { defineTopic } from '../live/topic.js';
import type { FastifyRequest } from 'fastify';
import { findCurrentOrder, listCustomerOrders, listKitchenOrders } from '../data/order-queries.js';

const ownKitchen = async (request: FastifyRequest) => ({
  params: (await requireKitchen(request)).kitchen.uid,
  sessions: requestSessionHashes(request),
});
const ownCustomer = async (request: FastifyRequest) => ({
  params: (await requireUser(request, 'customer')).id,
  sessions: requestSessionHashes(request),
});

/** A kitchen's orders in progress ('Active'), for its owner only. */
export const kitchenOrdersTopic = defineTopic<string, KitchenOrder[]>({
  key: (kitchenUid) => `orders:${kitchenUid}`,
  load: (db, kitchenUid) => listKitchenOrders(db, kitchenUid, 'active'),
  access: ownKitchen,
});

/** A kitchen's ended and deleted orders ('Past'), for its owner only. */
export const kitchenPastOrdersTopic = defineTopic<string, KitchenOrder[]>({
  key: (kitchenUid) => `orders-past:${kitchenUid}`,
  load: (db, kitchenUid) => listKitchenOrders(db, kitchenUid, 'past'),
  access: ownKitchen,
});

/** A customer's order in progress, or else their latest (null if none), for that customer only. */
export const customerOrderTopic = defineTopic<string, CustomerOrder | null>({
  key: (customerId) => `order:${customerId}`,
  load: (db, customerId) => findCurrentOrder(db, customerId),
  access: ownCustomer,
});

/** 'Your orders': a customer's orders, newest first, for that customer only. */
export const customerOrdersTopic = defineTopic<string, CustomerOrder[]>({
  key: (customerId) => `orders-of:${customerId}`,
  load: (db, customerId) => listCustomerOrders(db, customerId),
  access: ownCustomer,
});
