import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/lib/project-root.js';
import { freePort } from '../../src/server/test/http-client.js';
import { isRunning, killServerProcesses, startProcess } from '../../src/server/test/server-process.js';

// These run in order on the project's own dist/: the second builds it (with NODE_ENV=development), the third
// serves that build, the fourth rebuilds the web app without NODE_ENV and compares. `npm test` runs this file on
// its own (`npm run test:start`): builds take both cores, and the other files have timing checks.
afterEach(killServerProcesses);
const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const webDir = join(projectRoot(), 'dist', 'web');

/** Makes `npm start` build first, as on a fresh clone. */
function makeBuildStale() {
  const server = join(projectRoot(), 'dist', 'node', 'server', 'main.js');
  if (existsSync(server)) utimesSync(server, 0, 0);
}

/** Every file of `dir` with a hash of its content. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return files;
}

/** `npm` with this process's environment less vitest's NODE_ENV=test, plus `env`. */
function npm(args: string[], env: NodeJS.ProcessEnv = {}) {
  const inherited = { ...process.env };
  delete inherited.NODE_ENV;
  return startProcess('npm', args, { ...inherited, LOG_LEVEL: 'info', GEOCODER: 'off', ...env });
}

/** `npm start` as the README runs it, on a new DATA_DIR and a free port. */
async function npmStart(env: NodeJS.ProcessEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mkt-start-'));
  dataDirs.push(dataDir);
  const port = await freePort();
  return { ...npm(['start'], { DATA_DIR: dataDir, PORT: String(port), ...env }), dataDir, port };
}

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** Sends `signal` to the npm process alone, as a process manager does, and checks that all of it stops. */
async function expectCleanStop(started: Awaited<ReturnType<typeof npmStart>>, signal: NodeJS.Signals) {
  const tree = started.tree();
  const sentAt = Date.now();
  started.child.kill(signal);
  expect(await started.exited, started.output()).toBe(0);
  expect(Date.now() - sentAt).toBeLessThan(5000);
  await expect.poll(() => tree.filter(isRunning), { timeout: 5000 - (Date.now() - sentAt) }).toEqual([]);
  expect(await portIsFree(started.port)).toBe(true);
  expect(existsSync(join(started.dataDir, 'server.lock'))).toBe(false);
}

let developmentBuild: Record<string, string> | undefined;

describe('npm start', () => {
  it('stops at once, leaving nothing running, when signalled while it builds', async () => {
    makeBuildStale();
    const started = await npmStart();
    await started.printed('building client environment', 60_000);
    await expectCleanStop(started, 'SIGTERM');
  }, 90_000);

  it('builds with NODE_ENV=development, serves, and on SIGTERM exits 0 within 5 s leaving nothing behind', async () => {
    makeBuildStale();
    const started = await npmStart({ NODE_ENV: 'development' });
    await started.ready(180_000);
    expect(started.output()).toContain('Building the app');
    developmentBuild = snapshot(webDir);
    const kitchens = (await (
      await fetch(`http://127.0.0.1:${started.port}/api/kitchens`)
    ).json()) as unknown[];
    expect(kitchens.length).toBeGreaterThan(0);
    // The built server bundle (dist/ssr) renders the public pages: the kitchen is in the HTML itself.
    const [first] = kitchens as { uid: string; name: string }[];
    for (const path of ['/', `/KitchenMenu/${first?.uid ?? ''}`]) {
      const page = await fetch(`http://127.0.0.1:${started.port}${path}`, {
        headers: { accept: 'text/html' },
      });
      expect(page.status, path).toBe(200);
      const html = await page.text();
      expect(html, path).toContain('<script type="application/json" id="page-data">');
      expect(html, path).toContain(`>${(first?.name ?? '').replace(/'/g, '&#x27;')}</`);
    }
    await expectCleanStop(started, 'SIGTERM');
  }, 240_000);

  it('serves no source maps, and on SIGINT exits 0 within 5 s leaving nothing behind', async () => {
    const started = await npmStart();
    await started.ready();
    const scripts = readdirSync(join(webDir, 'assets')).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const naming: string[] = [];
    for (const name of scripts) {
      const url = `http://127.0.0.1:${started.port}/assets/${name}`;
      const script = await fetch(url);
      expect(script.status, url).toBe(200);
      if ((await script.text()).includes('sourceMappingURL')) naming.push(name);
      expect((await fetch(`${url}.map`)).status, `${url}.map`).toBe(404);
    }
    expect(naming, 'scripts naming a source map').toEqual([]);
    await expectCleanStop(started, 'SIGINT');
  }, 60_000);

  it('builds the same web app with NODE_ENV unset as with NODE_ENV=development', async () => {
    expect(developmentBuild, 'needs the build of the test above').toBeDefined();
    const build = npm(['run', 'build:web']);
    expect(await build.exited, build.output()).toBe(0);
    expect(snapshot(webDir)).toEqual(developmentBuild);
  }, 180_000);
});
