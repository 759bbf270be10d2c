// How an order reaches its customer, without the ordering schemas (in ordering.ts): the first view names them
// without zod (issue 32).
import { msg } from './i18n/translator.js';

export const FULFILMENTS = ['delivery', 'pickup'] as const;
export type Fulfilment = (typeof FULFILMENTS)[number];
export const FULFILMENT_LABELS: Record<Fulfilment, string> = {
  delivery: msg('Delivery'),
  pickup: msg('Pickup'),
};
