import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  EmailSettingInput,
  NOTICE_AUDIENCE,
  NotificationSettings,
  SessionChoice,
  LEGAL_NOTICE_LOCKED,
} from '../../../shared/notifications.js';
import { currentUser, requireUser } from '../../identity/sessions.js';
import type { User } from '../../identity/users.js';
import { badRequest, conflict, unauthorized } from '../../lib/errors.js';
import { readSettings, saveEmailSetting, type Audience } from './settings-queries.js';
import { msg } from '../../../shared/i18n/translator.js';

/** Which of the browser's sessions the settings are for. */
const SettingsQuery = SessionChoice;

export const NEW_ORDERS_LOCKED = msg(
  'Your new-order emails stay on while your kitchen takes orders and you have no device with push notifications',
);

/**
 * Whose settings a request is about: its `as` session when it says (401 without it), else the kitchen session if
 * there is one, else the customer's. An operator is no party to any notice: 401.
 */
async function whose(
  request: FastifyRequest,
  as: Audience | undefined,
): Promise<{ user: User; audience: Audience }> {
  if (as) return { user: await requireUser(request, as), audience: as };
  const cook = await currentUser(request, 'kitchen');
  if (cook) return { user: cook, audience: 'kitchen' };
  const customer = await currentUser(request, 'customer');
  if (customer) return { user: customer, audience: 'customer' };
  throw unauthorized('Please sign in to see your notifications');
}

/** The server's VAPID public key, or null when push is off (or the channels are not set up, as in some tests). */
const vapidPublicKeyOf = (app: FastifyInstance): string | null =>
  (app.notices as typeof app.notices | undefined)?.pusher?.publicKey ?? null;

/**
 * 'Notifications': a cook's or a customer's email setting per kind of notice, and their push devices. The cook's
 * new-order email cannot be turned off while their kitchen takes orders and no device of theirs gets pushes.
 */
export const notificationSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const settingsOf = async (user: User, audience: Audience): Promise<NotificationSettings> => ({
    ...(await readSettings(app.db, user.id, audience, new Date(app.clock.now()))),
    vapidPublicKey: vapidPublicKeyOf(app),
  });

  app.get(
    '/api/notifications/settings',
    {
      config: {
        doc: {
          summary:
            "The signed-in person's notifications: email on or off per kind (a cook's kinds for a kitchen session, a customer's for a customer session; ?as= chooses when the browser holds both), their push devices and the server's VAPID key",
          cookie: 'any',
        },
      },
      schema: { querystring: SettingsQuery, response: { 200: NotificationSettings } },
    },
    async (request, reply) => {
      const { user, audience } = await whose(request, request.query.as);
      reply.header('cache-control', 'no-store');
      return settingsOf(user, audience);
    },
  );

  app.put(
    '/api/notifications/settings/email',
    {
      config: {
        doc: {
          summary:
            'Turn the email of one kind of notice on or off (one of the kinds of the session it is for; ?as= chooses)',
          cookie: 'any',
          errors: {
            409: "The cook's new-order email cannot be turned off while their kitchen takes orders and they have no push device",
          },
        },
      },
      schema: {
        querystring: SettingsQuery,
        body: EmailSettingInput,
        response: { 200: NotificationSettings },
      },
    },
    async (request) => {
      const { user, audience } = await whose(request, request.query.as);
      const { kind, email } = request.body;
      if (NOTICE_AUDIENCE[kind] !== audience)
        throw badRequest(
          audience === 'kitchen'
            ? msg("Kind must be one of the cook's notification kinds")
            : msg("Kind must be one of the customer's notification kinds"),
          'kind',
        );
      await app.db.transaction(async (tx) => {
        if (!email) {
          const current = await readSettings(tx, user.id, audience, new Date(app.clock.now()));
          if (current.email.some((setting) => setting.kind === kind && setting.locked))
            throw conflict(kind === 'order-new' ? NEW_ORDERS_LOCKED : LEGAL_NOTICE_LOCKED, 'email');
        }
        await saveEmailSetting(tx, user.id, kind, email);
      });
      return settingsOf(user, audience);
    },
  );
};
