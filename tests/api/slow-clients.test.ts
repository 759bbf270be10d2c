import { once } from 'node:events';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kitchen } from '../../src/shared/kitchens.js';
import { buildApp } from '../../src/server/app.js';
import { upsertUser } from '../../src/server/identity/users.js';
import type { Database } from '../../src/server/db/database.js';
import { registerKitchen } from '../../src/server/kitchens/kitchen-service.js';
import { openEventStream } from '../../src/server/test/event-stream.js';
import { testConfig } from '../../src/server/test/test-app.js';
import { openTestDatabase } from '../../src/server/test/test-database.js';

// Short limits so that the test runs in seconds; the defaults are 30 s for a request and 10 s for its headers.
const TIMEOUTS = { requestMs: 1500, headersMs: 1000 };
// Node looks for expired requests every tenth of the headers limit.
const CHECK_SLACK_MS = 500;

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  req?: { url?: string };
}

// Closed after the tests, so that a failed test cannot keep the server from closing.
const opened: { destroy(): void }[] = [];

/** A raw HTTP/1.1 connection: what the server sent, and when (if ever) it closed the socket. */
async function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  opened.push(socket);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {}); // writes after the server hung up fail; the close is what we look at
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  await once(socket, 'connect');
  return { socket, closed, received: () => received };
}

/** Resolves with the promise's value, or rejects with `what` once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function waitUntil(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends one keep-alive request on `connection` and waits for its whole (small, fixed-length) answer. */
async function keepAliveRequest(connection: Awaited<ReturnType<typeof rawConnection>>, answers: number) {
  connection.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  const count = () => connection.received().match(/HTTP\/1\.1 200 OK/g)?.length ?? 0;
  await waitUntil(() => count() >= answers && connection.received().endsWith('}'), 5000, 'no answer');
}

describe('slow and vanishing clients', () => {
  let database: Database;
  let app: FastifyInstance;
  let port: number;
  const log: LogLine[] = [];
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    const memory = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          log.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    app = await buildApp({
      config: testConfig(),
      database,
      webDir: '/nonexistent',
      logger: pino({ level: 'debug' }, memory),
      timeouts: TIMEOUTS,
    });
    // A request received at once whose answer takes longer than the request limit.
    app.post('/api/test/slow-answer', async (request) => {
      await released;
      return { received: request.body };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    release();
    for (const connection of opened) connection.destroy();
    await app?.close();
    await database?.close();
  });

  it('cuts off a client that sends its body too slowly, while streams, slow answers and keep-alive go on', async () => {
    const base = `http://127.0.0.1:${port}`;
    const stream = await openEventStream(`${base}/api/kitchens`);
    opened.push({ destroy: () => stream.close() });
    await stream.waitFor((d) => Array.isArray(d));
    const slowAnswer = fetch(`${base}/api/test/slow-answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    const keepAlive = await rawConnection(port);
    await keepAliveRequest(keepAlive, 1);

    const slowHeaders = await rawConnection(port);
    const slowBody = await rawConnection(port);
    const started = Date.now();
    slowHeaders.socket.write('POST /api/chat HTTP/1.1\r\nHost: localhost\r\n');
    slowBody.socket.write(
      'POST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{',
    );
    // A byte at a time, well within any idle timeout: only a limit on the whole request stops these.
    const drip = setInterval(() => {
      if (!slowHeaders.socket.destroyed) slowHeaders.socket.write('x');
      if (!slowBody.socket.destroyed) slowBody.socket.write(' ');
    }, 100);
    try {
      const headersCut = await within(slowHeaders.closed, 10_000, 'a slow-headers client was not cut off');
      const bodyCut = await within(slowBody.closed, 10_000, 'a slow-body client was not cut off');
      expect(headersCut - started).toBeLessThan(TIMEOUTS.headersMs + CHECK_SLACK_MS);
      expect(bodyCut - started).toBeLessThan(TIMEOUTS.requestMs + CHECK_SLACK_MS);
    } finally {
      clearInterval(drip);
    }
    for (const client of [slowHeaders, slowBody])
      expect(client.received()).toMatch(/^(HTTP\/1\.1 408 .*)?$/s);

    // Everything opened before the slow clients has now been open longer than the request limit.
    expect(Date.now() - started).toBeGreaterThan(TIMEOUTS.requestMs);
    release();
    const answer = await slowAnswer;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: { hello: 'world' } });
    await keepAliveRequest(keepAlive, 2);
    keepAlive.socket.destroy();

    const owner = await upsertUser(database.db, {
      issuer: 'urn:test',
      subject: 'slow-clients',
      email: 'slow-clients@example.test',
      displayName: 'Slow',
      photoUrl: null,
    });
    const kitchen = await registerKitchen(app, owner, {
      name: 'Written after the cut-off',
      category: 'Korean',
      address: '1 Patience Road',
      imageLink: 'https://img.example/k.png',
      hours: ALL_DAY_HOURS,
    });
    await stream.waitFor((d) => Array.isArray(d) && (d as Kitchen[]).some((k) => k.uid === kitchen?.uid));
    stream.close();

    expect(log.filter((l) => l.msg === 'database unavailable')).toEqual([]);
    expect(log.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('logs a client that resets half-way through its body as gone, not as a database or server error', async () => {
    const from = log.length;
    const client = await rawConnection(port);
    client.socket.write(
      'POST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"text":"',
    );
    await waitUntil(
      () => log.slice(from).some((l) => l.msg === 'incoming request'),
      5000,
      'the request never arrived',
    );
    client.socket.resetAndDestroy();

    const verdicts = ['client went away', 'database unavailable', 'unhandled error'];
    await waitUntil(
      () => log.slice(from).some((l) => verdicts.includes(l.msg ?? '')),
      5000,
      'the server never noticed',
    );
    const lines = log.slice(from);
    expect(lines.filter((l) => l.msg === 'database unavailable')).toEqual([]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.find((l) => l.msg === 'client went away')?.level).toBeLessThanOrEqual(30);
  });
});
