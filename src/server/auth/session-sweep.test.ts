import { eq } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { sessions } from '../db/schema.js';
import { openTestDatabase } from '../test/test-database.js';
import { buildUser, describeEachEngine, testConfig } from '../test/test-app.js';
import { createSession, hashToken } from '../identity/sessions.js';
import { deleteExpiredSessions } from './session-sweep.js';
import { upsertUser } from '../identity/users.js';

describeEachEngine('expired sessions', (get) => {
  it('are deleted by the sweep; live ones stay', async () => {
    const ctx = get();
    const user = await buildUser(ctx);
    const expired = await createSession(ctx.database.db, user.id, 'customer', -1000);
    const live = await createSession(ctx.database.db, user.id, 'kitchen');
    expect(await deleteExpiredSessions(ctx.database.db)).toBeGreaterThanOrEqual(1);
    const left = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(left.map((s) => s.tokenHash)).toEqual([hashToken(live)]);
    expect(left.map((s) => s.tokenHash)).not.toContain(hashToken(expired));
  });
});

// Two app starts on a new embedded database: slow on a busy machine, hence the longer timeout.
it('the server sweeps expired sessions when it starts', { timeout: 90_000 }, async () => {
  const database = await openTestDatabase('pglite');
  const first = await buildApp({ config: testConfig(), database, webDir: '/nonexistent' });
  try {
    await first.ready();
    const user = await upsertUser(database.db, {
      issuer: 'urn:test',
      subject: 'sweep',
      email: 'sweep@example.test',
      displayName: 'Sweep',
      photoUrl: null,
    });
    await createSession(database.db, user.id, 'customer', -1000);
    await first.close();
    const second = await buildApp({ config: testConfig(), database, webDir: '/nonexistent' });
    await second.ready();
    await vi.waitFor(async () => expect(await database.db.select().from(sessions)).toEqual([]), {
      timeout: 10_000,
    });
    await second.close();
  } finally {
    await database.close();
  }
});
