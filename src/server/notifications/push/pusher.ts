import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import { join, resolve } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import { z } from 'zod';
import type { PushPayload } from '../../../shared/notifications.js';
import type { Config } from '../../lib/config.js';
import type { Pusher, PushTarget } from '../channels.js';

/** How long a push service keeps a notice for a device that is off: a day, after which it is stale news. */
export const PUSH_TTL_SECONDS = 24 * 3600;
/** How long the push service's socket may stay silent: a stalled one never hangs the worker. */
export const PUSH_TIMEOUT_MS = 10_000;
/** The development keys' file in DATA_DIR. */
export const VAPID_FILE = 'vapid.json';

const VapidKeys = z.object({
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/),
  privateKey: z.string().regex(/^[A-Za-z0-9_-]{40,50}$/),
});
export type VapidKeys = z.infer<typeof VapidKeys>;

export interface PusherOptions {
  /** The HTTPS agent to reach push services with (tests: one that trusts their local push service's certificate). */
  agent?: Agent;
}

/**
 * Web Push, VAPID-signed and encrypted (aes128gcm) for each subscription by `web-push`, to whatever push service
 * the subscription's endpoint names. Null in production without VAPID keys (a warning says so): no push is sent.
 */
export async function createPusher(
  config: Config,
  log: FastifyBaseLogger,
  options: PusherOptions = {},
): Promise<Pusher | null> {
  const keys = vapidKeys(config);
  if (!keys) {
    log.warn('VAPID keys are not set: no push notifications');
    return null;
  }
  return webPusher(keys, config.notifications.vapidSubject, options);
}

/**
 * The VAPID keys: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; else, in development, a pair generated once and kept in
 * DATA_DIR (so that a restart does not orphan the browsers' subscriptions), as the session secret is; tests get a
 * fresh pair; production none.
 */
export function vapidKeys(config: Config): VapidKeys | undefined {
  if (config.notifications.vapid) return config.notifications.vapid;
  if (config.nodeEnv === 'production') return undefined;
  if (config.nodeEnv === 'test') return webpush.generateVAPIDKeys();
  const dir = resolve(config.dataDir);
  const file = join(dir, VAPID_FILE);
  const kept = readKeys(file);
  if (kept) return kept;
  mkdirSync(dir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  try {
    // Only if no other instance on this DATA_DIR wrote it first: then theirs is everyone's.
    writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = readKeys(file);
    if (!theirs)
      throw new Error(`${file} is not a pair of VAPID keys: remove it to have a new pair made`, {
        cause: error,
      });
    return theirs;
  }
}

function readKeys(file: string): VapidKeys | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const keys = VapidKeys.safeParse(parsed);
  // A file being written by another instance this very moment reads as empty: not a broken one.
  if (!keys.success) {
    if (text.trim() === '') return undefined;
    throw new Error(`${file} is not a pair of VAPID keys: remove it to have a new pair made`);
  }
  return keys.data;
}

/** A push service's answer that the subscription no longer exists: the caller removes it. */
const GONE = new Set([404, 410]);

function webPusher(keys: VapidKeys, subject: string, options: PusherOptions): Pusher {
  const vapidDetails = { subject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  return {
    publicKey: keys.publicKey,
    async send(target: PushTarget, payload: PushPayload) {
      try {
        await webpush.sendNotification(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          JSON.stringify(payload),
          {
            vapidDetails,
            TTL: PUSH_TTL_SECONDS,
            urgency: 'high',
            timeout: PUSH_TIMEOUT_MS,
            contentEncoding: 'aes128gcm',
            ...(options.agent ? { agent: options.agent } : {}),
          },
        );
        return 'sent';
      } catch (error) {
        if (error instanceof webpush.WebPushError && GONE.has(error.statusCode)) return 'gone';
        if (error instanceof webpush.WebPushError)
          throw new Error(
            `The push service answered ${error.statusCode}: ${String(error.body ?? '').slice(0, 200)}`,
            {
              cause: error,
            },
          );
        throw error;
      }
    },
  };
}
