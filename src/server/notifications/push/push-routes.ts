import { createPublicKey } from 'node:crypto';
import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PushDevice, PushSubscriptionInput, SessionChoice } from '../../../shared/notifications.js';
import { pushSubscriptions, users } from '../../db/schema.js';
import { currentUser, requireUser } from '../../identity/sessions.js';
import type { User } from '../../identity/users.js';
import { badRequest, conflict, notFound, unauthorized } from '../../lib/errors.js';
import { empty } from '../../lib/route-doc.js';
import type { NoticeChannels } from '../channels.js';
import { deviceName } from './device-name.js';
import { msg, t } from '../../../shared/i18n/translator.js';

/** Devices one person may have push notifications on: a phone, a tablet, a laptop or two, with room to spare. */
export const MAX_PUSH_DEVICES = 20;

export const SIGN_IN_FOR_PUSH = msg('Please sign in to get notifications on this device');
export const NOT_ITS_KEYS = msg(
  "This device's notifications are another account's, and these keys are not its keys",
);
export const TOO_MANY_DEVICES = msg(
  "You have notifications on {max} devices: turn them off on one in 'Notifications' first",
);

/** Which of the browser's sessions a device is for. */
const AsQuery = SessionChoice;
type As = z.infer<typeof AsQuery>['as'];

const DeviceParams = z.object({ id: z.string().uuid({ error: () => t('Device id must be a uuid') }) });
const PushKey = z.object({
  /** The server's VAPID public key (base64url) for `pushManager.subscribe`; null when push is off. */
  publicKey: z.string().nullable(),
});

/** The people a request may act as on push devices: its `as` session (401 without it), else its kitchen's, then its customer's. */
async function signedInAs(request: FastifyRequest, as: As): Promise<User[]> {
  if (as) return [await requireUser(request, as)];
  const signed = [await currentUser(request, 'kitchen'), await currentUser(request, 'customer')].filter(
    (user): user is User => user !== undefined,
  );
  if (signed.length === 0) throw unauthorized(SIGN_IN_FOR_PUSH);
  return signed;
}

/**
 * In production the server posts only to push services on the internet: an endpoint on an address of its own
 * network (an IP literal, localhost, a name without a dot) would make it a way to reach those.
 */
function publicPushService(endpoint: string): boolean {
  const host = new URL(endpoint).hostname.toLowerCase();
  if (host.startsWith('[') || /^[\d.]+$/.test(host)) return false;
  if (!host.includes('.') || host === 'localhost' || host.endsWith('.localhost')) return false;
  return !/\.(local|internal|lan|home\.arpa)$/.test(host);
}

/**
 * The subscription's keys as a push can be encrypted with: a point of P-256 (uncompressed) and a 16-byte secret. A
 * device with keys that are not would fail every push to it, and hold up its person's other devices' pushes.
 */
function keysRefusal(keys: { p256dh: string; auth: string }): { field: string; message: string } | undefined {
  const point = Buffer.from(keys.p256dh, 'base64url');
  const onCurve = () => {
    try {
      const coordinate = (from: number, to: number) => point.subarray(from, to).toString('base64url');
      createPublicKey({
        key: { kty: 'EC', crv: 'P-256', x: coordinate(1, 33), y: coordinate(33, 65) },
        format: 'jwk',
      });
      return true;
    } catch {
      return false;
    }
  };
  if (point.length !== 65 || point[0] !== 4 || !onCurve())
    return { field: 'keys.p256dh', message: msg('keys.p256dh must be a base64url P-256 key') };
  if (Buffer.from(keys.auth, 'base64url').length !== 16)
    return { field: 'keys.auth', message: msg('keys.auth must be a base64url secret of 16 bytes') };
  return undefined;
}

const vapidPublicKeyOf = (app: FastifyInstance): string | null =>
  (app.notices as NoticeChannels | undefined)?.pusher?.publicKey ?? null;

/**
 * Web Push devices: a browser subscribes (its push service's endpoint and keys) for the person signed in, and takes
 * itself off again; the server's VAPID key is public. The worker sends each notice to every device of its recipient.
 */
export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/notifications/push-key',
    {
      config: {
        doc: {
          summary:
            "The server's VAPID public key, for a browser to subscribe to push notifications with (null when push is off)",
        },
      },
      schema: { response: { 200: PushKey } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return { publicKey: vapidPublicKeyOf(app) };
    },
  );

  app.post(
    '/api/notifications/push-subscriptions',
    {
      config: {
        doc: {
          summary: `Get notifications on this device: its browser's push subscription, for the person signed in (?as= chooses when the browser holds both a customer's and a kitchen's session). An endpoint another person had moves to this one when its very keys are presented (the same browser); at most ${MAX_PUSH_DEVICES} devices each`,
          cookie: 'any',
          errors: {
            409: `Notifications are on for ${MAX_PUSH_DEVICES} devices already, or the endpoint is another person's and the keys are not its keys (field: keys)`,
          },
        },
      },
      schema: { querystring: AsQuery, body: PushSubscriptionInput, response: { 201: PushDevice } },
    },
    async (request, reply) => {
      const [user] = await signedInAs(request, request.query.as);
      if (!user) throw unauthorized(SIGN_IN_FOR_PUSH);
      const { endpoint, keys } = request.body;
      if (app.config.nodeEnv === 'production' && !publicPushService(endpoint))
        throw badRequest("Endpoint must be a push service's https link", 'endpoint');
      const refusal = keysRefusal(keys);
      if (refusal) throw badRequest(refusal.message, refusal.field);
      const name =
        request.body.name || deviceName(request.headers['user-agent'], app.i18n.translator(request.locale));
      const device = await app.db.transaction(async (tx) => {
        // One person's subscriptions one at a time, so that two at once cannot pass the limit together.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
        const [others] = await tx
          .select({ n: count() })
          .from(pushSubscriptions)
          .where(and(eq(pushSubscriptions.userId, user.id), ne(pushSubscriptions.endpoint, endpoint)));
        if ((others?.n ?? 0) >= MAX_PUSH_DEVICES)
          throw conflict(TOO_MANY_DEVICES, undefined, { max: MAX_PUSH_DEVICES });
        const [row] = await tx
          .insert(pushSubscriptions)
          .values({ userId: user.id, endpoint, p256dh: keys.p256dh, auth: keys.auth, name })
          .onConflictDoUpdate({
            target: pushSubscriptions.endpoint,
            set: {
              userId: sql`excluded.user_id`,
              p256dh: sql`excluded.p256dh`,
              auth: sql`excluded.auth`,
              name: sql`excluded.name`,
              // A device that changes hands is new to its new person.
              createdAt: sql`case when ${pushSubscriptions.userId} = excluded.user_id then ${pushSubscriptions.createdAt} else excluded.created_at end`,
            },
            // Another person's device changes hands only with its very keys, as its browser presents them when
            // someone else signs in there: knowing its endpoint is not enough to take its notifications away.
            setWhere: sql`${pushSubscriptions.userId} = excluded.user_id or (${pushSubscriptions.p256dh} = excluded.p256dh and ${pushSubscriptions.auth} = excluded.auth)`,
          })
          .returning({
            id: pushSubscriptions.id,
            name: pushSubscriptions.name,
            createdAt: pushSubscriptions.createdAt,
          });
        // Nothing inserted nor updated: the endpoint is another person's, under other keys.
        if (!row) throw conflict(NOT_ITS_KEYS, 'keys');
        return row;
      });
      return reply.status(201).send({ ...device, createdAt: device.createdAt.toISOString() });
    },
  );

  app.delete(
    '/api/notifications/push-subscriptions/:id',
    {
      config: {
        doc: {
          summary:
            "Stop notifications on one of one's devices (?as= chooses the session when the browser holds both)",
          cookie: 'any',
          responses: { 204: empty },
          errors: { 404: 'No device of yours with this id' },
        },
      },
      schema: { params: DeviceParams, querystring: AsQuery },
    },
    async (request, reply) => {
      const people = await signedInAs(request, request.query.as);
      const removed = await app.db
        .delete(pushSubscriptions)
        .where(
          and(
            eq(pushSubscriptions.id, request.params.id),
            inArray(
              pushSubscriptions.userId,
              people.map((person) => person.id),
            ),
          ),
        )
        .returning({ id: pushSubscriptions.id });
      if (removed.length === 0) throw notFound('You have no device with this id');
      return reply.status(204).send();
    },
  );
};
