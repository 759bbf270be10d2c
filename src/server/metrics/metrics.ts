import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Where an order is placed; its answers are counted from here, outside the order code. */
const ORDER_ROUTE = 'POST /api/orders';

/**
 * The instance's Prometheus metrics, in a registry of its own (tests build several apps in one process):
 * requests by route pattern and status, open live streams by topic kind, orders placed and refused, the
 * database pool and statement times, and how late change-bus messages arrive. Node's own metrics come along.
 */
export function createMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Answered requests',
    labelNames,
    registers,
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request (a live stream: how long it stayed open)',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const placed = new Counter({
    name: 'homecooked_orders_placed_total',
    help: 'Orders placed (201; a repeated submit of the same order answers 200 and is not counted)',
    registers,
  });
  const refused = new Counter({
    name: 'homecooked_orders_refused_total',
    help: 'Orders refused, by status (400 bad cart, 401, 409 one open order, 422 key reused, 429, 503, …)',
    labelNames: ['status'] as const,
    registers,
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the raw URL: ids in paths would make a series per id.
    const route = request.routeOptions.url ?? '(no route)';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
    if (`${request.method} ${route}` !== ORDER_ROUTE) return;
    if (reply.statusCode === 201) placed.inc();
    else if (reply.statusCode >= 400) refused.inc({ status: String(reply.statusCode) });
  });

  new Gauge({
    name: 'homecooked_live_streams',
    help: 'Open live streams (server-sent events), by topic kind',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      this.reset();
      for (const [kind, count] of app.hub.subscribersByKind()) this.set({ kind }, count);
    },
  });

  new Counter({
    name: 'homecooked_live_loads_total',
    help: 'Live topics loaded from the database (each is kept until it changes), by topic kind',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      this.reset();
      for (const [kind, count] of app.hub.loadsByKind) this.inc({ kind }, count);
    },
  });

  const queries = new Histogram({
    name: 'homecooked_db_query_duration_seconds',
    help: 'Time of each database statement, from sending it to its result',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers,
  });
  app.database.observeQueries((seconds) => queries.observe(seconds));
  const { database } = app;
  if (database.poolStats) {
    const poolStats = database.poolStats.bind(database);
    new Gauge({
      name: 'homecooked_db_pool_connections',
      help: 'PostgreSQL pool connections, by state (total, idle, waiting requests, max)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        for (const [state, value] of Object.entries(poolStats())) this.set({ state }, value);
      },
    });
  }

  const { reads } = app;
  if (reads.enabled) {
    new Counter({
      name: 'homecooked_public_reads_total',
      help: 'Public reads (live lists, searches, pages) that reached a database, by the server that answered',
      labelNames: ['target'] as const,
      registers,
      collect() {
        this.reset();
        for (const [target, count] of Object.entries(reads.counts)) this.inc({ target }, count);
      },
    });
  }

  const lag = new Histogram({
    name: 'homecooked_change_bus_lag_seconds',
    help: 'From a change-bus message being sent (in its transaction) to this instance receiving it',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers,
  });
  app.bus.onLag((ms) => lag.observe(Math.max(0, ms) / 1000));
  if (app.config.busUrl) {
    const bus = app.bus;
    new Gauge({
      name: 'homecooked_change_bus_backlog',
      help: "Changes committed and not yet published to NATS (rows of bus_outbox, every instance's)",
      registers,
      async collect() {
        this.set((await bus.backlog()) ?? 0);
      },
    });
  }
  return registry;
}
