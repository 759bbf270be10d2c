import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import type { Database } from '../../src/server/db/database.js';
import { testConfig } from '../../src/server/test/test-app.js';
import { openTestDatabase } from '../../src/server/test/test-database.js';

// The build keeps its source maps beside the scripts (`sourcemap: 'hidden'`); they hold the whole source.
describe('a built web app with source maps beside it', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    const webDir = mkdtempSync(join(tmpdir(), 'mkt-web-'));
    mkdirSync(join(webDir, 'assets'));
    writeFileSync(
      join(webDir, 'index.html'),
      '<!doctype html><script type="module" src="/assets/app-1a2b.js"></script>',
    );
    writeFileSync(join(webDir, 'assets', 'app-1a2b.js'), 'console.log("app");\n');
    writeFileSync(join(webDir, 'assets', 'app-1a2b.js.map'), '{"version":3,"sourcesContent":["secret"]}');
    writeFileSync(join(webDir, 'stray.js.map'), '{"version":3,"sourcesContent":["secret"]}');
    database = await openTestDatabase('pglite');
    app = await buildApp({ config: testConfig(), database, webDir });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('serves the scripts', async () => {
    const res = await app.inject('/assets/app-1a2b.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("app");\n');
  });

  it('answers 404 for every source map', async () => {
    for (const url of ['/assets/app-1a2b.js.map', '/stray.js.map']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('secret');
    }
  });
});
