import type { FastifyInstance } from 'fastify';
import type { Config } from '../lib/config.js';
import type { NoticeChannels } from './channels.js';
import { createMailer } from './mail/mailer.js';
import { createPusher } from './push/pusher.js';
import { registerNoticeWorker } from './worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** How notifications leave: email and Web Push (src/server/notifications/). */
    notices: NoticeChannels;
  }
}

/**
 * Notifications with the tab closed: the channels (SMTP or the development mailbox; Web Push with the VAPID keys)
 * and the worker that sends what the outbox holds. Decorates `app.notices`.
 */
export async function registerNotifications(app: FastifyInstance, config: Config): Promise<void> {
  const mailer = await createMailer(config, app.log);
  const pusher = await createPusher(config, app.log);
  app.decorate('notices', { mailer, pusher });
  app.addHook('onClose', async () => mailer?.close());
  registerNoticeWorker(app);
}
