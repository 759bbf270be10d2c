import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { Cluster } from '../../scripts/cluster/cluster.js';
import { connectBenchKitchen } from '../../bench/payments.js';
import { orderRequest, seedBench, type BenchData } from '../../bench/seed.js';
import { openPostgres } from '../../src/server/db/database.js';
import { ledgerEntries, orders } from '../../src/server/db/schema.js';
import { projectRoot } from '../../src/server/lib/project-root.js';
import { startLocalStripe, TEST_CARDS, type LocalStripe } from '../../src/server/payments/local-stripe.js';
import { openEventStream, type EventStream } from '../../src/server/test/event-stream.js';
import { freePort } from '../../src/server/test/http-client.js';
import { createPrivateNats } from '../../src/server/test/private-nats.js';
import { createPgDatabase } from '../../src/server/test/test-database.js';

const CUSTOMERS = 50;
/** Customers of the rolling restart's test (after those of the first). */
const ROLLING_CUSTOMERS = 40;
const SCREENS = 20;
const DEADLINE_MS = 90_000;

type Json = Record<string, unknown>;

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One request as a browser sends it: on a kept-alive connection, sent again on a new one when that connection turns
 * out to be closed before any answer came (the server closed it as the request left: every browser does this, for
 * any method; an nginx reload closes idle connections so) — once, on a new connection. Nothing else is retried: the status, or 0 for no answer.
 */
function browserRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
) {
  const send = (resent: boolean): Promise<number> =>
    new Promise((resolve) => {
      // Sent again on a connection of its own: another idle one may be closing just as well.
      const agent = resent ? false : keepAlive;
      const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      });
      req.on('error', () => resolve(req.reusedSocket && !resent ? send(true) : 0));
      req.end(init.body);
    });
  return send(false);
}

/** A client's request through the cluster, repeated as a browser's retry would (same body) while the cluster is in doubt. */
async function persist(
  url: string,
  init: RequestInit,
  retryOn: (status: number) => boolean = (status) => status >= 502,
): Promise<{ status: number; body: Json; tries: number }> {
  const deadline = Date.now() + DEADLINE_MS;
  for (let tries = 1; ; tries++) {
    const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) }).then(
      async (res) => ({ status: res.status, body: (await res.json().catch(() => ({}))) as Json }),
      () => undefined,
    );
    if (answer && !retryOn(answer.status)) return { ...answer, tries };
    if (Date.now() > deadline) throw new Error(`${url}: no answer in time (last ${answer?.status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls the customer's order through the cluster until `done` holds. */
async function until(base: string, cookie: string, done: (order: Json) => boolean): Promise<Json> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const { body } = await persist(`${base}/api/orders/mine`, { headers: { cookie } }, (s) => s !== 200);
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`the order never got there: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A cook's open dashboard: the tab's live stream of the kitchen's orders, reopened when it ends with the version it
 * holds (`#etag`), as the browser's EventSource does after `retry`.
 */
class Screen {
  latest: unknown;
  private etag: string | undefined;
  connections = 0;
  /** Distinct (order, status, payment state) the screen has shown. */
  readonly shown = new Set<string>();
  private stream: EventStream | undefined;
  private stopped = false;
  readonly running: Promise<void>;

  constructor(
    private readonly base: string,
    private readonly cookie: string,
  ) {
    this.running = this.run();
  }

  private async run() {
    const topic = '/api/kitchen/orders';
    while (!this.stopped) {
      const t = this.etag ? `${topic}#${this.etag}` : topic;
      // Reopened naming the version it shows, it is sent the next change as a delta from that version.
      const held = new Map(this.etag ? [[topic, { etag: this.etag, data: this.latest }]] : []);
      try {
        this.stream = await openEventStream(
          `${this.base}/api/live?t=${encodeURIComponent(t)}`,
          { cookie: this.cookie },
          (value, event) => {
            if (event !== 'snapshot' && event !== 'delta') return;
            const frame = value as { topic?: string; etag?: string; data?: unknown };
            if (frame.topic !== topic) return;
            if (frame.data === undefined) {
              // A delta from a version it does not show: asked for whole again, as a browser does.
              this.etag = undefined;
              this.stream?.close();
              return;
            }
            this.etag = frame.etag;
            this.latest = frame.data;
            for (const order of frame.data as Json[])
              this.shown.add(
                `${String(order.id)} ${String(order.status)} ${JSON.stringify(order.payment ?? null)}`,
              );
          },
          held,
        );
        this.connections += 1;
        await this.stream.ended;
      } catch {
        // The instance went away while connecting: try again, through nginx, on another one.
      }
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async stop() {
    this.stopped = true;
    this.stream?.close();
    await this.running;
  }
}

/** The change bus between the instances: PostgreSQL's LISTEN/NOTIFY (the default), or NATS JetStream (BUS_URL). */
describe.each(['LISTEN/NOTIFY', 'NATS'] as const)(
  'a cluster of three instances behind nginx, bus %s',
  (bus) => {
    let nats: ReturnType<typeof createPrivateNats> | undefined;
    let drop: () => Promise<void>;
    let cluster: Cluster;
    let local: LocalStripe;
    let data: BenchData;
    let databaseUrl: string;

    beforeAll(async () => {
      const created = await createPgDatabase();
      drop = created.drop;
      databaseUrl = created.url;
      const port = await freePort();
      const apiKey = `sk_test_cluster_${randomBytes(8).toString('hex')}`;
      const webhookSecret = `whsec_cluster_${randomBytes(8).toString('hex')}`;
      // The provider's signed events come in through nginx, as Stripe's would.
      local = await startLocalStripe({
        apiKey,
        webhook: {
          url: `http://127.0.0.1:${port}/api/payments/webhook`,
          secret: webhookSecret,
          connectSecret: `${webhookSecret}_connect`,
        },
      });
      if (bus === 'NATS') {
        nats = createPrivateNats(await freePort());
        await nats.start();
      }
      const setup = await openPostgres(databaseUrl, { poolSize: 2 });
      try {
        data = await seedBench(setup, CUSTOMERS + ROLLING_CUSTOMERS);
        await connectBenchKitchen(setup, data, local, apiKey);
      } finally {
        await setup.close();
      }
      cluster = new Cluster({
        size: 3,
        port,
        command: [process.execPath, '--import', 'tsx', 'src/server/main.ts'],
        cwd: projectRoot(),
        env: {
          ...process.env,
          NODE_ENV: 'development',
          DATABASE_URL: databaseUrl,
          SESSION_SECRET: randomBytes(48).toString('base64url'),
          TRUST_PROXY: '1',
          PAYMENTS: 'stripe',
          STRIPE_SECRET_KEY: apiKey,
          STRIPE_WEBHOOK_SECRET: webhookSecret,
          STRIPE_CONNECT_WEBHOOK_SECRET: `${webhookSecret}_connect`,
          STRIPE_API_BASE: local.url,
          // An event whose delivery met a dying instance is fetched by the poll.
          PAYMENT_POLL_SECONDS: '2',
          GEOCODER: 'off',
          SEED_DEMO: 'false',
          LOG_LEVEL: 'warn',
          ...(nats ? { BUS_URL: nats.url } : {}),
        },
        output: 'collect',
        log: () => {},
      });
      await cluster.start();
    }, 120_000);

    afterAll(async () => {
      await cluster?.stop();
      await local?.close();
      await nats?.destroy();
      await drop?.();
    });

    it('50 customers pay and are accepted while one instance is killed and another restarted: every order, ledger row and change exactly once', async () => {
      const base = cluster.url;
      const ownerCookie = `kitchen_session=${data.ownerToken}`;
      const screens = Array.from({ length: SCREENS }, () => new Screen(base, ownerCookie));
      const placed = new Set<number>();
      let retried = 0;

      const journey = async (n: number) => {
        const request = orderRequest(data, n, 'cluster');
        const body = JSON.stringify({ ...(JSON.parse(request.body) as object), payment: 'card' });
        const answer = await persist(`${base}/api/orders`, {
          method: 'POST',
          headers: request.headers,
          body,
        });
        retried += answer.tries - 1;
        expect([200, 201], JSON.stringify(answer.body)).toContain(answer.status);
        placed.add(n);
        const id = String(answer.body.id);
        const url = String((answer.body.payment as { checkoutUrl: string }).checkoutUrl);
        const session = /\/checkout\/(cs_[0-9a-f]+)/.exec(url)?.[1] ?? '';
        await local.pay(session, TEST_CARDS.pays);
        await until(base, request.headers.cookie, (order) => order.state === 'recieved');
        const accepted = await persist(`${base}/api/kitchen/orders/${id}/moves`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: ownerCookie },
          body: JSON.stringify({ move: 'accept', readyInMinutes: 30 }),
        });
        // 409: a try the dying instance carried out but never answered; the order moved on all the same.
        expect([200, 409], JSON.stringify(accepted.body)).toContain(accepted.status);
        await until(
          base,
          request.headers.cookie,
          (order) => (order.payment as { state?: string } | null)?.state === 'captured',
        );
        return id;
      };

      const journeys = Array.from({ length: CUSTOMERS }, (_, n) => journey(n));
      const whenPlaced = async (count: number) => {
        while (placed.size < count) await new Promise((resolve) => setTimeout(resolve, 20));
      };
      // Part-way, one instance dies without warning, and another is restarted as a deployment does.
      await whenPlaced(10);
      cluster.kill(1);
      await whenPlaced(25);
      await cluster.restart(2);
      const ids = await Promise.all(journeys);
      expect(new Set(ids).size).toBe(CUSTOMERS);
      // The supervisor starts the killed one again and puts it back in rotation. (Until the supervisor has noticed
      // the death, the killed instance is still marked in rotation: it pauses while another instance restarts, and
      // the customers may all be done by then, as in a CI run on 2026-11-26.)
      const back = Date.now() + 60_000;
      const restarted = () => cluster.instances[1]?.starts === 2 && cluster.instances[1].inRotation;
      while (!restarted() && Date.now() < back) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(cluster.instances[1]).toMatchObject({ starts: 2, inRotation: true });

      // What the cook's dashboard shows now, read afresh: every open screen ends up showing exactly this.
      const final = await persist(`${base}/api/kitchen/orders`, { headers: { cookie: ownerCookie } });
      const finalOrders = final.body as unknown as Json[];
      expect(finalOrders.map((o) => o.id).sort()).toEqual([...ids].sort());
      const expected = finalOrders.map(
        (o) => `${String(o.id)} ${String(o.status)} ${JSON.stringify(o.payment ?? null)}`,
      );
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !screens.every((s) => expected.every((line) => s.shown.has(line))))
        await new Promise((resolve) => setTimeout(resolve, 50));
      for (const screen of screens) {
        expect(expected.filter((line) => !screen.shown.has(line))).toEqual([]);
        expect(screen.latest).toEqual(final.body);
      }
      // The screens held on the killed and the restarted instance came back through nginx to the others.
      const reconnections = screens.reduce((sum, s) => sum + s.connections - 1, 0);
      expect(reconnections).toBeGreaterThan(0);
      await Promise.all(screens.map((s) => s.stop()));

      const database = await openPostgres(databaseUrl, { poolSize: 1 });
      try {
        const rows = await database.db.select().from(orders);
        expect(rows.length).toBe(CUSTOMERS);
        const ledger = await database.db
          .select()
          .from(ledgerEntries)
          .where(inArray(ledgerEntries.orderId, ids));
        for (const order of rows) {
          const own = ledger.filter((row) => row.orderId === order.id);
          const kinds = own.map((row) => row.kind).sort();
          expect(kinds, `order ${order.id}'s ledger`).toEqual([
            'authorised',
            'captured',
            'kitchen_transfer',
            'platform_fee',
          ]);
          const amount = (kind: string) => own.find((row) => row.kind === kind)?.amountCents;
          expect(amount('captured')).toBe(order.totalCents);
          expect((amount('platform_fee') ?? 0) + (amount('kitchen_transfer') ?? 0)).toBe(order.totalCents);
        }
      } finally {
        await database.close();
      }
      console.info(
        `cluster: ${CUSTOMERS} journeys, ${retried} order submits repeated, ${reconnections} stream reconnections`,
      );
    }, 180_000);

    // Draining is nginx's and the instances' alone (the bus plays no part): shown once.
    it.runIf(bus === 'LISTEN/NOTIFY')(
      'a rolling restart of every instance: no request a client sends meanwhile fails, reads or writes',
      async () => {
        const base = cluster.url;
        const startsBefore = cluster.instances.map((i) => i.starts);
        const statuses = new Map<string, number>();
        const count = (what: string, status: number) => {
          const key = `${what} ${status}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        };
        let restarting = true;
        const rolling = cluster.rollingRestart().finally(() => (restarting = false));
        // No retry here but the browser's own (above): whatever a client is answered is what it sees.
        const reader = async (n: number) => {
          const cookie = `customer_session=${data.customerTokens[n]}`;
          const paths = ['/api/kitchens', `/api/kitchens/${data.kitchenUid}/menu`, '/api/orders/mine'];
          for (let i = 0; restarting; i++) {
            const path = paths[i % paths.length] ?? '/';
            const status = await browserRequest(`${base}${path}`, { headers: { cookie } });
            count(`GET ${path.startsWith('/api/kitchens/') ? '/api/kitchens/:uid/menu' : path}`, status);
          }
        };
        const orderer = async () => {
          for (let n = CUSTOMERS; n < CUSTOMERS + ROLLING_CUSTOMERS && restarting; n++) {
            const request = orderRequest(data, n, 'rolling');
            const body = JSON.stringify({ ...(JSON.parse(request.body) as object), payment: 'cash' });
            const status = await browserRequest(`${base}/api/orders`, {
              method: 'POST',
              headers: request.headers,
              body,
            });
            count('POST /api/orders', status);
            await new Promise((resolve) => setTimeout(resolve, 150));
          }
        };
        await Promise.all([
          rolling,
          orderer(),
          ...Array.from({ length: 10 }, (_, i) => reader(CUSTOMERS + i)),
        ]);
        // Each started once more; one started again besides (it exited, or the supervisor found it unready) says why.
        expect(
          cluster.instances.map((i) => i.starts),
          cluster.instances.map((i) => `instance ${i.index}:\n${i.output.slice(-4000)}`).join('\n'),
        ).toEqual(startsBefore.map((n) => n + 1));
        const failed = [...statuses].filter(([key]) => !/ 20[01]$/.test(key));
        expect(failed, JSON.stringify([...statuses])).toEqual([]);
        expect(statuses.get('POST /api/orders 201') ?? 0).toBeGreaterThan(5);
        console.info(`rolling restart: ${JSON.stringify(Object.fromEntries(statuses))}`);
      },
      180_000,
    );
  },
);
