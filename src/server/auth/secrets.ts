import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../lib/config.js';

/**
 * The key that signs short-lived sign-in cookies: SESSION_SECRET, or in development one generated once and kept
 * in DATA_DIR (so a restart does not break a sign-in in progress). Tests (NODE_ENV=test) get a fresh one.
 */
export function sessionSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  if (config.nodeEnv === 'production') throw new Error('SESSION_SECRET is required in production');
  if (config.nodeEnv === 'test') return randomBytes(32).toString('base64url');
  const dir = resolve(config.dataDir);
  const file = join(dir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
