import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { KITCHEN_UNAVAILABLE } from '../../shared/moderation.js';
import { KitchenSlots } from '../../shared/ordering.js';
import { negotiateEncoding, type Coding } from '../lib/accept-encoding.js';
import { inEveryCoding } from '../lib/compressed.js';
import type { Snapshot } from '../live/hub.js';
import { readTopic } from '../live/live-route.js';
import { slotsTopic, type SlotsState } from './slots-topic.js';
import { notFound } from '../lib/errors.js';

/** The answer as sent: its JSON once, and each compressed coding once, when first asked for. */
interface Served {
  /** It holds from `from` (when it was computed) until just before `until`, unless the kitchen or its orders change. */
  from: number;
  until: number;
  json: string;
  body(coding: Coding): Promise<Buffer>;
}

const served = new WeakMap<Snapshot, Served | 'missing' | 'suspended'>();

function servedOf(snapshot: Snapshot): Served | 'missing' | 'suspended' {
  let entry = served.get(snapshot);
  if (entry === undefined) {
    const data = JSON.parse(snapshot.json) as SlotsState;
    if (data.state !== 'ok') entry = data.state;
    else {
      const json = JSON.stringify(data.answer);
      let codings: Promise<Record<Coding, Buffer>> | undefined;
      entry = {
        from: data.from,
        until: data.until,
        json,
        body: async (coding) => (await (codings ??= inEveryCoding(Buffer.from(json))))[coding],
      };
    }
    served.set(snapshot, entry);
  }
  return entry;
}

/**
 * A kitchen's slots now: the hub's snapshot while it holds, else computed again (once, however many ask at that
 * moment: the hub shares one load). 'missing' for no such kitchen, 'suspended' for one an operator suspended.
 */
export async function currentSlots(
  app: FastifyInstance,
  uid: string,
): Promise<Served | 'missing' | 'suspended'> {
  const snapshot = await readTopic(app, slotsTopic, uid);
  const entry = servedOf(snapshot);
  const now = app.clock.now();
  if (typeof entry === 'string' || (entry.from <= now && now < entry.until)) return entry;
  // Time moved the slots (or the clock went back: a test's, or a corrected one): the held answer is dropped (unless someone already did) and computed again.
  if (app.hub.cached(slotsTopic.key(uid)) === snapshot) app.hub.changed(slotsTopic.key(uid));
  return servedOf(await readTopic(app, slotsTopic, uid));
}

/** When an order at a kitchen can be for: 'As soon as possible' now, or one of its slots ahead (a plain GET, re-asked). */
export const slotRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchens/:uid/slots',
    {
      config: {
        doc: {
          summary:
            "When an order at a kitchen can be for: delivery or pickup, 'As soon as possible' now, and its time slots ahead with the places left",
          // Sent as computed once (compressed once too), not through a serializer: its shape is documented here.
          responses: { 200: KitchenSlots },
          errors: { 404: 'No such kitchen, or it is suspended' },
        },
      },
      schema: { params: KitchenParams },
    },
    async (request, reply) => {
      const answer = await currentSlots(app, request.params.uid);
      if (answer === 'missing') throw notFound('No kitchen with this id');
      // Suspended by an operator: it takes no order at all (its page says it is unavailable).
      if (answer === 'suspended') throw notFound(KITCHEN_UNAVAILABLE);
      const coding = negotiateEncoding(request.headers['accept-encoding']);
      reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('vary', 'accept-encoding');
      if (coding !== 'identity') reply.header('content-encoding', coding);
      return reply.send(await answer.body(coding));
    },
  );
};
