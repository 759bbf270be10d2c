import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killServerProcesses, startProcess } from '../../src/server/test/server-process.js';
import { createPgDatabase } from '../../src/server/test/test-database.js';

interface Summary {
  instances: {
    instance: string;
    requests: number;
    non2xx: number;
    errors: number;
    countedInMetrics: number;
  }[];
}

describe('npm run two-instances (the deployment guide, tried)', () => {
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await createPgDatabase();
  });
  afterEach(() => killServerProcesses());
  afterAll(async () => database?.drop());

  it('starts two instances on one PostgreSQL, loads both, and stops both cleanly', async () => {
    const script = startProcess(process.execPath, ['--import', 'tsx', 'scripts/two-instances.ts'], {
      ...process.env,
      DATABASE_URL: database.url,
      LOAD_SECONDS: '2',
      BASE_PORT: String(22000 + Math.floor(Math.random() * 5000)),
    });
    const code = await script.exited;
    expect(code, script.output()).toBe(0);
    expect(script.output()).not.toContain('did not stop cleanly');
    const line = script
      .output()
      .split('\n')
      .find((l) => l.startsWith('{"seconds"'));
    const summary = JSON.parse(line ?? '{}') as Summary;
    expect(summary.instances.map((i) => i.instance)).toEqual(['a', 'b']);
    for (const instance of summary.instances) {
      expect(instance.requests).toBeGreaterThan(50);
      expect(instance.non2xx + instance.errors).toBe(0);
      expect(instance.countedInMetrics).toBeGreaterThanOrEqual(instance.requests);
    }
  }, 120_000);
});
