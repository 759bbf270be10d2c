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
import { createPusher, PUSH_TTL_SECONDS, VAPID_FILE, vapidKeys } from './pusher.js';

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
    const config = loadConfig({ NODE_ENV: 'test', VAPID_SUBJECT: 'mailto:ops@homecooked.example' });
    const made = await createPusher(config, silent, { agent: service.agent });
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
    const stranger = await createPusher(loadConfig({ NODE_ENV: 'test' }), silent);
    const device = service.subscribe();
    await expect(stranger?.send(device, payload)).rejects.toThrow();
    expect(service.received.filter((p) => p.endpoint === device.endpoint)).toHaveLength(0);
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
