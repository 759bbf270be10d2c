import { allergenName } from '../../shared/allergen-set.js';
import { permitNumber } from '../data/kitchen-documents.js';
import type { Translator } from '../../shared/i18n/translator.js';
import type { Kitchen } from '../../shared/kitchens.js';
import { LABELLED_STATES, NOT_ACCEPTED, type LabelSize } from '../../shared/labels.js';
import { localTime } from '../../shared/opening-hours-rules.js';
import { slotLabel } from '../../shared/slots.js';
import type { DbOrTx } from '../db/database.js';
import { HttpError, notFound } from '../lib/errors.js';
import { msg } from '../../shared/i18n/translator.js';
import { renderList } from '../lib/pdf-list.js';
import { allergenSummary, renderLabels, type LabelDish } from './label-documents.js';
import type { Run } from '../lib/pdf-text.js';
import { orderForDocuments, slotLines } from './label-queries.js';

const noSuchOrder = () => notFound('Your kitchen has no order with this id on its list');

/** The order's number as people read it: the first 8 characters of its id. */
const orderNumber = (id: string) => id.slice(0, 8);

/** The same dish with the same declaration counted once: 'Biryani × 7'. */
function counted<T extends LabelDish>(lines: readonly T[]): (T & { count: number })[] {
  const groups = new Map<string, T & { count: number }>();
  for (const line of lines) {
    const key = JSON.stringify([line.item, line.contains, line.mayContain, line.declared]);
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { ...line, count: 1 });
  }
  return [...groups.values()];
}

const dishRow = (line: LabelDish & { count: number }, tr: Translator): Run[] => [
  { text: tr.t('{item} × {quantity}', { item: line.item, quantity: line.count }), bold: true },
  ...allergenSummary(line, tr),
];

/** 'Customer allergies: sesame, peanuts', or nothing when their profile was empty. */
export const customerAllergiesLine = (allergies: readonly string[], tr: Translator) =>
  allergies.length
    ? [
        tr.t('Customer allergies: {allergens}', {
          allergens: allergies.map((a) => allergenName(a, tr.locale)).join(tr.t(', ')),
        }),
      ]
    : [];

/** One label per dish of an accepted order of the kitchen, as a PDF; 404 if none, 409 before it is accepted. */
export async function orderLabels(
  db: DbOrTx,
  kitchen: Kitchen,
  orderId: string,
  size: LabelSize,
  now: Date,
  tr: Translator,
): Promise<Buffer> {
  const order = await orderForDocuments(db, kitchen.uid, orderId);
  if (!order) throw noSuchOrder();
  if (!(LABELLED_STATES as readonly string[]).includes(order.state))
    throw new HttpError(
      409,
      NOT_ACCEPTED,
      msg('Labels can be printed once you have accepted the order.'),
      'id',
    );
  return renderLabels(
    {
      kitchenName: kitchen.name,
      permitNumber: await permitNumber(db, kitchen.uid),
      forWhom: order.customerName ?? tr.t('Order {number}', { number: orderNumber(order.id) }),
      madeOn: localTime(now, kitchen.timeZone).date,
      dishes: order.lines,
    },
    size,
    tr,
  );
}

/** An order's packing list: who and where, the customer's allergies and note, each dish with its allergens. */
export async function packingList(db: DbOrTx, kitchen: Kitchen, orderId: string, now: Date, tr: Translator) {
  const order = await orderForDocuments(db, kitchen.uid, orderId);
  if (!order) throw noSuchOrder();
  return renderList(
    {
      title: tr.t('Packing list'),
      subtitle: [
        kitchen.name,
        tr.t('Order {number}', { number: orderNumber(order.id) }),
        ...(order.customerName ? [order.customerName] : []),
        ...(order.fulfilment === 'delivery' ? [order.address] : [tr.t('Pickup')]),
        ...(order.slotStart && order.slotEnd
          ? [
              slotLabel(
                { start: order.slotStart.toISOString(), end: order.slotEnd.toISOString() },
                kitchen.timeZone,
                now,
                tr,
              ),
            ]
          : []),
        ...customerAllergiesLine(order.customerAllergies, tr),
        ...(order.note ? [tr.t('Note: {note}', { note: order.note })] : []),
      ],
      rows: counted(order.lines).map((line) => dishRow(line, tr)),
    },
    tr,
  );
}

/** A slot's prep sheet: every dish its orders in progress hold, counted, with their allergens. */
export async function prepSheet(
  db: DbOrTx,
  kitchen: Kitchen,
  slot: string,
  now: Date,
  tr: Translator,
): Promise<Buffer> {
  const start = slot === 'asap' ? null : new Date(slot);
  const { orders, slotEnd, lines } = await slotLines(db, kitchen.uid, start);
  const heading = start
    ? slotLabel(
        { start: start.toISOString(), end: (slotEnd ?? start).toISOString() },
        kitchen.timeZone,
        now,
        tr,
      )
    : tr.t('As soon as possible');
  return renderList(
    {
      title: tr.t('Prep sheet'),
      subtitle: [
        kitchen.name,
        heading,
        tr.t('{count, plural, one {# order} other {# orders}}', { count: orders }),
      ],
      rows: counted(lines)
        .sort((a, b) => b.count - a.count || a.item.localeCompare(b.item))
        .map((line) => dishRow(line, tr)),
    },
    tr,
  );
}
