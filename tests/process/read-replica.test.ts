import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuItem } from '../../src/shared/menu.js';
import { buildApp } from '../../src/server/app.js';
import { openPostgres, type Database } from '../../src/server/db/database.js';
import { openReplica, parseLsn, type Replica } from '../../src/server/db/read-replica.js';
import { buildKitchen, buildMenuItem } from '../../src/server/test/builders.js';
import { openEventStream } from '../../src/server/test/event-stream.js';
import { freePort } from '../../src/server/test/http-client.js';
import {
  createPrivatePostgres,
  createPrivateReplica,
  type PrivatePostgres,
} from '../../src/server/test/private-postgres.js';
import { testConfig, type TestContext } from '../../src/server/test/test-app.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

/**
 * Public reads off a real streaming replica (docs/decisions/0009-public-reads-off-a-replica.md): a private primary
 * and a replica made from it with pg_basebackup, replay paused and resumed on the replica to hold it behind.
 */
const METRICS_TOKEN = 'replica-metrics-token-0123456789';

describe('public reads off a streaming replica', () => {
  let primary: PrivatePostgres;
  let standby: PrivatePostgres;
  let database: Database;
  let replica: Replica;
  let app: FastifyInstance;
  let base: string;
  let ctx: TestContext;
  let primaryAdmin: pg.Client;
  let standbyAdmin: pg.Client;

  beforeAll(async () => {
    primary = createPrivatePostgres(await freePort(), { replication: true });
    primary.start();
    database = await openPostgres(primary.url, { poolSize: 5 });
    standby = createPrivateReplica(primary, await freePort());
    standby.start();
    replica = openReplica(standby.url, { poolSize: 3 });
    const config = testConfig({
      DATABASE_URL: primary.url,
      DATABASE_READ_URL: standby.url,
      // Long enough that a replica held paused by the test still counts as a replica, not a broken one.
      DATABASE_READ_MAX_LAG_MS: '60000',
      METRICS_TOKEN: METRICS_TOKEN,
      // Shared by every instance (as in production): each checks the read-after cookies the others signed.
      SESSION_SECRET: 'replica-test-session-secret-0123456789abcdef',
    });
    app = await buildApp({ config, database, replica, webDir: '/nonexistent' });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    ctx = { engine: 'postgres', app, database, config } as TestContext;
    primaryAdmin = new pg.Client(primary.url);
    await primaryAdmin.connect();
    standbyAdmin = await connectToStandby();
  }, 120_000);

  afterAll(async () => {
    await standbyAdmin?.end().catch(() => {});
    await primaryAdmin?.end().catch(() => {});
    await app?.close();
    await replica?.close().catch(() => {});
    await database?.close().catch(() => {});
    standby?.destroy();
    primary?.destroy();
  });

  const connectToStandby = async () => {
    const client = new pg.Client(standby.url);
    await client.connect();
    // The outage test stops the replica under this connection.
    client.on('error', () => {});
    return client;
  };
  const pauseReplay = () => standbyAdmin.query('select pg_wal_replay_pause()');
  const resumeReplay = () => standbyAdmin.query('select pg_wal_replay_resume()');
  /** Waits until the replica has replayed everything the primary has written so far. */
  const caughtUp = async () => {
    const { rows } = await primaryAdmin.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    const target = parseLsn(rows[0]?.lsn) ?? 0n;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const replayed = await standbyAdmin.query<{ lsn: string }>(
        'select pg_last_wal_replay_lsn()::text as lsn',
      );
      if ((parseLsn(replayed.rows[0]?.lsn) ?? 0n) >= target) {
        // The router looks at the replay position at most every 20 ms.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the replica did not catch up');
  };
  const counts = () => ({ ...app.reads.counts });
  const menuOf = async (uid: string, cookie?: string) => {
    const res = await app.inject({ url: `/api/kitchens/${uid}/menu`, headers: cookie ? { cookie } : {} });
    expect(res.statusCode).toBe(200);
    return res.json<MenuItem[]>().map((d) => d.item);
  };
  const addDish = async (cookie: string, item: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/kitchen/menu',
      headers: { cookie },
      payload: {
        item,
        price: '9.50',
        wait: '20 min',
        imageLink: 'https://img.example/d.png',
        allergenAnswers: answersWith(),
      },
    });
    expect(res.statusCode).toBe(201);
    const readAfter = res.cookies.find((c) => c.name === 'read_after');
    expect(readAfter, 'a write sets the read-after cookie').toBeDefined();
    return `${cookie}; read_after=${readAfter?.value ?? ''}`;
  };

  it('a cook reads their own change at once (primary) while anonymous readers get the paused replica’s copy, then the replica’s caught-up one', async () => {
    const { kitchen, cookie } = await buildKitchen(ctx, { name: 'Replica Kitchen' });
    await buildMenuItem(ctx, kitchen, { item: 'Dal' });
    await caughtUp();
    expect(await menuOf(kitchen.uid)).toEqual(['Dal']);

    await pauseReplay();
    try {
      const cooksCookie = await addDish(cookie, 'Biryani');
      // Anyone else: the replica's answer, which has not replayed the new dish; kept by nobody, asked each time.
      let before = counts();
      expect(await menuOf(kitchen.uid)).toEqual(['Dal']);
      expect(await menuOf(kitchen.uid)).toEqual(['Dal']);
      expect(counts().replica - before.replica).toBe(2);
      // The landing page's later pages and search: also the replica's, and not kept.
      const page = await app.inject(`/api/kitchens/page?q=Replica`);
      expect(page.statusCode).toBe(200);
      // The cook: the primary, new dish included.
      before = counts();
      expect((await menuOf(kitchen.uid, cooksCookie)).sort()).toEqual(['Biryani', 'Dal']);
      expect(counts().primary).toBeGreaterThan(before.primary);
      expect(counts().replica).toBe(before.replica);
      // What the primary answered is kept for everyone: nobody is sent older than the hub holds.
      expect((await menuOf(kitchen.uid)).sort()).toEqual(['Biryani', 'Dal']);
    } finally {
      await resumeReplay();
    }

    // Another change while paused, nobody reading it from the primary: after the replay resumes, the anonymous
    // read shows it, and the replica answers it.
    await caughtUp();
    await pauseReplay();
    try {
      await addDish(cookie, 'Chai');
      expect((await menuOf(kitchen.uid)).sort()).toEqual(['Biryani', 'Dal']);
    } finally {
      await resumeReplay();
    }
    await caughtUp();
    const before = counts();
    expect((await menuOf(kitchen.uid)).sort()).toEqual(['Biryani', 'Chai', 'Dal']);
    expect(counts().replica).toBe(before.replica + 1);
    expect(counts().primary).toBe(before.primary);
  });

  it('search: the cook finds their new dish at once, anonymous searches get the paused replica’s answer, not kept', async () => {
    const { kitchen, cookie } = await buildKitchen(ctx, { name: 'Searched Kitchen' });
    await caughtUp();
    const search = async (cookieHeader?: string) => {
      const res = await app.inject({
        url: '/api/kitchens/search?q=Zafrani',
        headers: cookieHeader ? { cookie: cookieHeader } : {},
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ uid: string; matchingDishes: string[] }[]>().filter((hit) => hit.uid === kitchen.uid);
    };
    expect(await search()).toEqual([]);
    await pauseReplay();
    try {
      const cooksCookie = await addDish(cookie, 'Zafrani Pulao');
      expect(await search()).toEqual([]);
      expect((await search(cooksCookie)).map((hit) => hit.matchingDishes)).toEqual([['Zafrani Pulao']]);
    } finally {
      await resumeReplay();
    }
    await caughtUp();
    expect((await search()).map((hit) => hit.matchingDishes)).toEqual([['Zafrani Pulao']]);
  });

  it('a live stream of a public list sees a change while the replica is paused (no stale snapshot kept)', async () => {
    const { kitchen, cookie } = await buildKitchen(ctx, { name: 'Streamed Kitchen' });
    await buildMenuItem(ctx, kitchen, { item: 'Dal' });
    await caughtUp();
    const stream = await openEventStream(`${base}/api/kitchens/${kitchen.uid}/menu`);
    try {
      await stream.waitFor((d) => Array.isArray(d) && d.length === 1);
      await pauseReplay();
      try {
        await addDish(cookie, 'Kheer');
        await stream.waitFor(
          (d) => Array.isArray(d) && (d as MenuItem[]).some((item) => item.item === 'Kheer'),
          5000,
        );
      } finally {
        await resumeReplay();
      }
    } finally {
      stream.close();
    }
  });

  it('ignores read-after cookies it did not sign (200, and they send nobody to the primary)', async () => {
    const { kitchen } = await buildKitchen(ctx, { name: 'Cookie Kitchen' });
    await caughtUp();
    expect(await menuOf(kitchen.uid)).toEqual([]);
    const forged = [
      'read_after=FFFFFFFF/FFFFFFFF',
      'read_after=s:FFFFFFFF/FFFFFFFF.not-a-signature',
      'read_after=garbage',
      'read_after=%ZZ%',
      `read_after=${'9'.repeat(5000)}`,
      'read_after=',
      'read_after=s:',
      'read_after=s:0/0',
    ];
    for (const cookie of forged) {
      for (const url of [
        `/api/kitchens/${kitchen.uid}/menu`,
        `/api/kitchens/${kitchen.uid}`,
        '/api/kitchens/first-page',
        '/api/kitchens/search?q=cookie',
        '/api/kitchens/page?q=cookie',
      ]) {
        const res = await app.inject({ url, headers: { cookie } });
        expect(res.statusCode, `${url} with ${cookie.slice(0, 40)}`).toBe(200);
      }
    }
    // A far-ahead position nobody signed does not keep an anonymous reader off the replica.
    const before = counts();
    const res = await app.inject({
      url: `/api/kitchens/search?q=forged-${Date.now()}`,
      headers: { cookie: 'read_after=FFFFFFFF/FFFFFFFF' },
    });
    expect(res.statusCode).toBe(200);
    expect(counts().replica).toBe(before.replica + 1);
  });

  it('the read-after cookie holds on another instance: the writer reads the primary there, others the replica', async () => {
    const other = await buildApp({ config: app.config, database, replica, webDir: '/nonexistent' });
    try {
      const { kitchen, cookie } = await buildKitchen(ctx, { name: 'Two Instance Kitchen' });
      await caughtUp();
      await pauseReplay();
      try {
        const cooksCookie = await addDish(cookie, 'Poha');
        const read = async (cookieHeader?: string) => {
          const res = await other.inject({
            url: `/api/kitchens/${kitchen.uid}/menu`,
            headers: cookieHeader ? { cookie: cookieHeader } : {},
          });
          expect(res.statusCode).toBe(200);
          return res.json<MenuItem[]>().map((d) => d.item);
        };
        expect(await read()).toEqual([]);
        expect(await read(cooksCookie)).toEqual(['Poha']);
      } finally {
        await resumeReplay();
      }
    } finally {
      await other.close();
    }
  });

  it('a replica further behind than DATABASE_READ_MAX_LAG_MS is not read: anonymous readers get the primary’s answer', async () => {
    const config = testConfig({
      DATABASE_URL: primary.url,
      DATABASE_READ_URL: standby.url,
      DATABASE_READ_MAX_LAG_MS: '300',
    });
    const strict = await buildApp({ config, database, replica, webDir: '/nonexistent' });
    try {
      const { kitchen, cookie } = await buildKitchen(ctx, { name: 'Lagging Kitchen' });
      await caughtUp();
      await pauseReplay();
      try {
        const res = await strict.inject({
          method: 'POST',
          url: '/api/kitchen/menu',
          headers: { cookie },
          payload: {
            item: 'Upma',
            price: '5',
            wait: '10 min',
            imageLink: 'https://img.example/u.png',
            allergenAnswers: answersWith(),
          },
        });
        expect(res.statusCode).toBe(201);
        // Within the allowed lag: the replica's older copy.
        const soon = await strict.inject(`/api/kitchens/${kitchen.uid}/menu`);
        expect(soon.json()).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 400));
        // Beyond it: the primary, and what it answered is kept for everyone.
        const before = { ...strict.reads.counts };
        const late = await strict.inject(`/api/kitchens/${kitchen.uid}/menu`);
        expect(late.json<MenuItem[]>().map((d) => d.item)).toEqual(['Upma']);
        expect(strict.reads.counts.primary).toBeGreaterThan(before.primary);
        expect(strict.reads.counts.replica).toBe(before.replica);
      } finally {
        await resumeReplay();
      }
    } finally {
      await strict.close();
    }
  });

  it('counts public reads by the server that answered them in /metrics', async () => {
    const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    const { replica: onReplica, primary: onPrimary } = app.reads.counts;
    expect(onReplica).toBeGreaterThan(0);
    expect(onPrimary).toBeGreaterThan(0);
    expect(res.body).toContain(`homecooked_public_reads_total{target="replica"} ${onReplica}`);
    expect(res.body).toContain(`homecooked_public_reads_total{target="primary"} ${onPrimary}`);
  });

  it('with the replica stopped, public reads come from the primary (no 5xx) and /readyz stays ready', async () => {
    const { kitchen, cookie } = await buildKitchen(ctx, { name: 'Outage Kitchen' });
    await buildMenuItem(ctx, kitchen, { item: 'Dal' });
    await caughtUp();
    standby.stop();
    try {
      await addDish(cookie, 'Rasam');
      const before = counts();
      expect((await menuOf(kitchen.uid)).sort()).toEqual(['Dal', 'Rasam']);
      for (const url of [
        `/api/kitchens/${kitchen.uid}`,
        '/api/kitchens',
        '/api/kitchens/first-page',
        '/api/kitchens/search?q=outage',
        '/api/kitchens/page?q=outage',
      ]) {
        const res = await app.inject(url);
        expect(res.statusCode, url).toBe(200);
      }
      expect(counts().primary).toBeGreaterThan(before.primary);
      expect(counts().replica).toBe(before.replica);
      expect((await app.inject('/readyz')).statusCode).toBe(200);
    } finally {
      standby.start();
      standbyAdmin = await connectToStandby();
    }
    // Back: once it has caught up, the replica answers again (it is passed over for a second after a failure).
    await caughtUp();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = counts();
    const res = await app.inject(`/api/kitchens/search?q=back-${Date.now()}`);
    expect(res.statusCode).toBe(200);
    expect(counts().replica).toBe(before.replica + 1);
  });
});
