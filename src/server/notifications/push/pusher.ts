import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { join, resolve } from 'node:path';
import { rootCertificates } from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import { z } from 'zod';
import type { PushPayload } from '../../../shared/notifications.js';
import { isPublicHost } from '../../../shared/public-host.js';
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
  /** A certificate to trust besides the usual ones (tests: their local push service's). */
  ca?: string;
  /** How a push service's name is resolved (the system's resolver; tests: one of their own). */
  lookup?: LookupFunction;
}

/**
 * Whether a resolved address (as dns.lookup gives it, IPv6 without brackets) is on the public internet: not
 * loopback, private, link-local, shared, multicast or an IPv4 one mapped into IPv6 (src/shared/public-host.ts).
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPublicHost(address);
  if (family === 6) return isPublicHost(`[${address}]`);
  return false;
}

/** A push endpoint whose host is, or resolves to, an address of the server's own network. */
export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
  constructor(host: string, address: string) {
    super(
      `the push endpoint's host ${host} is ${address === host ? '' : `at ${address}, `}not on the internet`,
    );
  }
}

/**
 * `lookup` as a socket's connection resolves with it, that fails with PrivateAddressError when any of the name's
 * addresses is not public: the check and the connection use the same answer, so a name that resolves to a public
 * address for a check and to a private one a moment later (DNS rebinding) is never connected to.
 */
export function publicOnly(lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '');
      const addresses: LookupAddress[] =
        typeof found === 'string' ? [{ address: found, family: isIP(found) }] : found;
      const refused = addresses.find(({ address }) => !isPublicAddress(address));
      if (refused) return callback(new PrivateAddressError(hostname, refused.address), '');
      const [first] = addresses;
      if (options.all) return callback(null, addresses);
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * Web Push, VAPID-signed and encrypted (aes128gcm) for each subscription by `web-push`, to whatever push service
 * the subscription's endpoint names, as long as it is on the internet: an endpoint whose host is, or resolves at the
 * moment of sending to, an address of the server's own network is refused ('refused'), unless
 * PUSH_PRIVATE_ADDRESSES=allow (tests and development only: production refuses that setting). Null in production
 * without VAPID keys (a warning says so): no push is sent.
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
  return webPusher(keys, config.notifications.vapidSubject, {
    privateAddresses: config.notifications.pushPrivateAddresses,
    ...options,
  });
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

function webPusher(
  keys: VapidKeys,
  subject: string,
  options: PusherOptions & { privateAddresses: 'allow' | 'refuse' },
): Pusher {
  const vapidDetails = { subject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  const refusing = options.privateAddresses === 'refuse';
  const lookup = options.lookup ?? (systemLookup as LookupFunction);
  const agent = new Agent({
    lookup: refusing ? publicOnly(lookup) : lookup,
    ...(options.ca ? { ca: [...rootCertificates, options.ca] } : {}),
  });
  return {
    publicKey: keys.publicKey,
    async send(target: PushTarget, payload: PushPayload) {
      // An address in the link itself is connected to without a lookup: judged here.
      const host = new URL(target.endpoint).hostname;
      const literal = host.replace(/^\[(.*)\]$/, '$1');
      if (refusing && isIP(literal) !== 0 && !isPublicAddress(literal)) return 'refused';
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
            agent,
          },
        );
        return 'sent';
      } catch (error) {
        if (error instanceof PrivateAddressError) return 'refused';
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
