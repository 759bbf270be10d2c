import type { FastifyInstance } from 'fastify';
import type { Clock } from '../lib/clock.js';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp, type BuildAppOptions } from '../app.js';
import { createSession, type Role } from '../identity/sessions.js';
import { upsertUser, type User } from '../identity/users.js';
import { loadConfig, type Config } from '../lib/config.js';
import type { Database } from '../db/database.js';
import { ENGINES, openTestDatabase, type Engine } from './test-database.js';

/** No web app unless a test gives one (`webDir`, and `pageRenderer` for server-rendered pages). */
export type TestAppOptions = { clock?: Clock } & Pick<BuildAppOptions, 'webDir' | 'pageRenderer'>;

export interface TestContext {
  engine: Engine;
  app: FastifyInstance;
  database: Database;
  config: Config;
}

/** Cash only unless a test asks for card payments (`PAYMENTS: 'local'`, or `stripe` against a server of its own). */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    GEOCODER: 'off',
    PAYMENTS: 'off',
    PAYMENT_POLL_SECONDS: '0',
    NOTIFY_POLL_SECONDS: '0',
    PLAN_POLL_SECONDS: '0',
    ...env,
  });
}

export async function createTestContext(
  engine: Engine,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestContext> {
  const database = await openTestDatabase(engine);
  const config = testConfig(env);
  const app = await buildApp({ config, database, webDir: '/nonexistent', ...options });
  await app.ready();
  return { engine, app, database, config };
}

export async function closeTestContext(ctx: TestContext | undefined): Promise<void> {
  if (!ctx) return;
  await ctx.app.close();
  await ctx.database.close();
}

/**
 * Runs the suite once per database engine, each with its own app and database.
 * `get()` returns the context inside tests.
 */
export function describeEachEngine(
  name: string,
  suite: (get: () => TestContext) => void,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): void {
  describe.each(ENGINES)(`${name} [%s]`, (engine) => {
    let ctx: TestContext | undefined;
    beforeAll(async () => {
      ctx = await createTestContext(engine, env, options);
    });
    afterAll(async () => closeTestContext(ctx));
    suite(() => {
      if (!ctx) throw new Error('test context not ready');
      return ctx;
    });
  });
}

let userCounter = 0;

/** A user of our own (as the sign-in callback would create) with a unique email. */
export async function buildUser(
  ctx: TestContext,
  overrides: Partial<{ email: string; displayName: string }> = {},
): Promise<User> {
  userCounter++;
  const tag = `${process.pid}-${userCounter}-${Math.random().toString(36).slice(2, 8)}`;
  return upsertUser(ctx.database.db, {
    issuer: 'urn:test',
    subject: `subject-${tag}`,
    email: overrides.email ?? `user-${tag}@example.test`,
    displayName: overrides.displayName ?? `User ${tag}`,
    photoUrl: null,
  });
}

/** A session for `user` under `role`, as a Cookie header value. */
export async function sessionCookie(ctx: TestContext, user: User, role: Role): Promise<string> {
  const token = await createSession(ctx.database.db, user.id, role);
  return `${role}_session=${token}`;
}

/** A new user signed in under `role`: the user and its Cookie header. */
export async function signedIn(ctx: TestContext, role: Role, overrides?: Parameters<typeof buildUser>[1]) {
  const user = await buildUser(ctx, overrides);
  return { user, cookie: await sessionCookie(ctx, user, role) };
}
