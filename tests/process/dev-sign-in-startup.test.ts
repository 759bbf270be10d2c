import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killServerProcesses, startServerProcess } from '../../src/server/test/server-process.js';

afterEach(killServerProcesses);

const noGoogle = { GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '', DEV_SIGN_IN: '' };
const freePort = () => String(20000 + Math.floor(Math.random() * 20000));

// Each test starts a real server process (tsx, PGlite): slow on a busy machine.
describe('the development sign-in, in a real server process', { timeout: 90_000 }, () => {
  it('refuses to start on a public PUBLIC_URL without a Google client, saying how to configure one', async () => {
    const server = startServerProcess({
      ...noGoogle,
      PORT: freePort(),
      PUBLIC_URL: 'https://food.example.com',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'mkt-')),
    });
    expect(await server.exited).not.toBe(0);
    expect(server.output()).toContain('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET');
    expect(server.output()).toContain('https://food.example.com/auth/callback');
  });

  it('serves it on a public PUBLIC_URL only when DEV_SIGN_IN enables it on purpose', async () => {
    const port = freePort();
    const server = startServerProcess({
      ...noGoogle,
      PORT: port,
      PUBLIC_URL: 'https://staging.example.com',
      DEV_SIGN_IN: 'unsafe-anyone-can-sign-in',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'mkt-')),
      SEED_DEMO: 'false',
    });
    await server.ready(80_000);
    const discovery = await fetch(`http://127.0.0.1:${port}/dev-idp/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
