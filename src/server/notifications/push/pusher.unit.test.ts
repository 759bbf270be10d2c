import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import webpush from 'web-push';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PushPayload } from '../../../shared/notifications.js';
import { loadConfig } from '../../lib/config.js';
import { startLocalPushService, type LocalPushService } from '../../test/local-push-service.js';
import type { Pusher } from '../channels.js';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { createPusher, publicOnly, PUSH_TTL_SECONDS, VAPID_FILE, vapidKeys } from './pusher.js';

/** What production needs besides (a Google client, a session secret). */
const production = (env: Record<string, string>) =>
  loadConfig({
    NODE_ENV: 'production',
    SESSION_SECRET: 'x'.repeat(32),
    GOOGLE_CLIENT_ID: 'client',
    GOOGLE_CLIENT_SECRET: 'secret',
    PUBLIC_URL: 'https://homecooked.example',
    ...env,
  });

const silent = pino({ level: 'silent' }) as FastifyBaseLogger;

const payload: PushPayload = {
  title: 'New order from ana@example.com',
  body: 'Dal × 2, Rice <b>at once</b> — 32,45 €',
  url: '/KitchenOrders',
  tag: 'order-new:6f1c2a4e-0000-4000-8000-000000000001',
};

describe('Web Push to a push service', () => {
  let service: LocalPushService;
  let pusher: Pusher;

  beforeAll(async () => {
    service = await startLocalPushService();
    // The local push service is on loopback: tests allow that, production never does.
    const config = loadConfig({
      NODE_ENV: 'test',
      VAPID_SUBJECT: 'mailto:ops@homecooked.example',
      PUSH_PRIVATE_ADDRESSES: 'allow',
    });
    const made = await createPusher(config, silent, { ca: service.cert });
    if (!made) throw new Error('no pusher in tests');
    pusher = made;
  });
  afterAll(async () => service.close());

  it('sends the payload encrypted for the device, VAPID-signed, for a day, urgently', async () => {
    const device = service.subscribe();
    expect(await pusher.send(device, payload)).toBe('sent');
    const [push] = service.received.filter((p) => p.endpoint === device.endpoint);
    expect(push).toBeDefined();
    // Decrypted with the device's private key and auth secret: the very payload.
    expect(JSON.parse(push?.plaintext ?? '')).toEqual(payload);
    expect(push?.vapid).toMatchObject({
      publicKey: pusher.publicKey,
      aud: service.origin,
      sub: 'mailto:ops@homecooked.example',
    });
    expect(push?.headers).toMatchObject({
      ttl: String(PUSH_TTL_SECONDS),
      urgency: 'high',
      'content-encoding': 'aes128gcm',
    });
  });

  it("says 'gone' when the push service no longer knows the subscription (410, 404)", async () => {
    for (const status of [410, 404]) {
      const device = service.subscribe();
      service.answer(device.endpoint, status);
      expect(await pusher.send(device, payload)).toBe('gone');
      // It did arrive, well formed: the service answered it so.
      expect(service.received.filter((p) => p.endpoint === device.endpoint)).toHaveLength(1);
    }
  });

  it('throws on any other failure, for the worker to try again', async () => {
    const device = service.subscribe();
    service.answer(device.endpoint, 500);
    await expect(pusher.send(device, payload)).rejects.toThrow('The push service answered 500');
    service.answer(device.endpoint, 429);
    await expect(pusher.send(device, payload)).rejects.toThrow('The push service answered 429');
    // Nobody listening there.
    await expect(
      pusher.send({ ...device, endpoint: 'https://127.0.0.1:1/push/nobody' }, payload),
    ).rejects.toThrow();
  });

  it('is refused by a push service that does not trust the sender (another pair of keys signs nothing here)', async () => {
    // A pusher that trusts no local certificate cannot even reach it: an error, not 'gone'.
    const stranger = await createPusher(
      loadConfig({ NODE_ENV: 'test', PUSH_PRIVATE_ADDRESSES: 'allow' }),
      silent,
    );
    const device = service.subscribe();
    await expect(stranger?.send(device, payload)).rejects.toThrow();
    expect(service.received.filter((p) => p.endpoint === device.endpoint)).toHaveLength(0);
  });
});

/** A resolver that answers `addresses` for every name, as dns.lookup would with `all`. */
const resolvingTo =
  (...addresses: string[]): LookupFunction =>
  (_hostname, options, callback) => {
    const all: LookupAddress[] = addresses.map((address) => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
    if (options.all) callback(null, all);
    else callback(null, all[0]?.address ?? '', all[0]?.family);
  };

describe('push endpoints that lead into the server’s own network', () => {
  let service: LocalPushService;
  beforeAll(async () => {
    service = await startLocalPushService();
  });
  afterAll(async () => service.close());

  const pusherResolving = async (...addresses: string[]) => {
    const made = await createPusher(loadConfig({ NODE_ENV: 'test' }), silent, {
      ca: service.cert,
      lookup: resolvingTo(...addresses),
    });
    if (!made) throw new Error('no pusher in tests');
    return made;
  };

  it.each(
    [
      ['10.0.0.5'],
      ['127.0.0.1'],
      ['169.254.169.254'],
      ['172.16.3.4'],
      ['192.168.1.2'],
      ['100.64.0.1'],
      ['0.0.0.0'],
      ['::1'],
      ['::'],
      ['fe80::1'],
      ['fd12:3456::5'],
      ['::ffff:10.0.0.5'],
      ['::ffff:127.0.0.1'],
      // One private address among public ones is enough: the connection may go to any of them.
      ['93.184.215.14', '10.0.0.5'],
      ['2606:4700::6810:84e5', '::1'],
    ].map((addresses) => [addresses.join(', '), addresses] as const),
  )('refuses at send time a name that resolves to %s', async (_, addresses) => {
    const pusher = await pusherResolving(...addresses);
    const device = service.subscribe();
    const endpoint = 'https://10.0.0.5.nip.io/push/x';
    expect(await pusher.send({ ...device, endpoint }, payload)).toBe('refused');
    expect(service.received.filter((p) => p.endpoint === endpoint)).toHaveLength(0);
  });

  it('refuses localhost, resolved as the system resolves it, and an address of the network in the link itself', async () => {
    const pusher = await createPusher(loadConfig({ NODE_ENV: 'test' }), silent, { ca: service.cert });
    const device = service.subscribe();
    const port = new URL(service.origin).port;
    for (const host of ['localhost', '127.0.0.1', '[::1]', '10.0.0.5', '[::ffff:7f00:1]', '[fe80::1]']) {
      const endpoint = `https://${host}:${port}/push/${device.endpoint.split('/').pop()}`;
      expect(await pusher?.send({ ...device, endpoint }, payload), host).toBe('refused');
    }
    // Not even the local push service's own endpoint, on loopback, without the opt-in.
    expect(await pusher?.send(device, payload)).toBe('refused');
    expect(service.received.filter((p) => p.endpoint === device.endpoint)).toHaveLength(0);
  });

  it('lets through a name that resolves to public addresses only, as the system resolver answered', async () => {
    const lookup = publicOnly(resolvingTo('93.184.215.14', '2606:4700::6810:84e5'));
    const answers: unknown[] = [];
    await new Promise<void>((resolve) =>
      lookup('fcm.googleapis.com', { all: true }, (error, addresses) => {
        answers.push(error, addresses);
        resolve();
      }),
    );
    await new Promise<void>((resolve) =>
      lookup('fcm.googleapis.com', {}, (error, address, family) => {
        answers.push(error, address, family);
        resolve();
      }),
    );
    expect(answers).toEqual([
      null,
      [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700::6810:84e5', family: 6 },
      ],
      null,
      '93.184.215.14',
      4,
    ]);
  });

  it('posts to an address of the network with the opt-in that tests and development have, which production refuses', async () => {
    const config = loadConfig({ NODE_ENV: 'test', PUSH_PRIVATE_ADDRESSES: 'allow' });
    const pusher = await createPusher(config, silent, { ca: service.cert });
    const device = service.subscribe();
    expect(await pusher?.send(device, payload)).toBe('sent');
    expect(() => production({ PUSH_PRIVATE_ADDRESSES: 'allow' })).toThrow(/PUSH_PRIVATE_ADDRESSES/);
  });
});

describe('VAPID keys', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vapid-'));
  });
  afterEach(() => rmSync(join(dir, VAPID_FILE), { force: true }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are the settings when set', async () => {
    const keys = webpush.generateVAPIDKeys();
    const config = production({
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      DATA_DIR: dir,
    });
    expect((await createPusher(config, silent))?.publicKey).toBe(keys.publicKey);
  });

  it('are generated once in development and kept in DATA_DIR, readable by the owner only', () => {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    const first = vapidKeys(config);
    const file = join(dir, VAPID_FILE);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A restart keeps them: the browsers' subscriptions still work.
    expect(vapidKeys(config)).toEqual(first);
  });

  it('refuse a broken file in DATA_DIR rather than silently replace it', () => {
    writeFileSync(join(dir, VAPID_FILE), '{"publicKey":"short"}');
    expect(() => vapidKeys(loadConfig({ NODE_ENV: 'development', DATA_DIR: dir }))).toThrow(
      /vapid\.json is not a pair of VAPID keys/,
    );
  });

  it('are none in production without settings: no push, and a warning says so', async () => {
    const warn = vi.fn();
    const log = { ...silent, warn } as unknown as FastifyBaseLogger;
    const config = production({ DATA_DIR: dir });
    expect(await createPusher(config, log)).toBeNull();
    expect(warn).toHaveBeenCalledWith('VAPID keys are not set: no push notifications');
  });

  it('are fresh in tests, and written nowhere', () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir });
    expect(vapidKeys(config)).not.toEqual(vapidKeys(config));
    expect(() => statSync(join(dir, VAPID_FILE))).toThrow();
  });
});
