import { setTimeout as sleep } from 'node:timers/promises';

/** Time as code that waits sees it; tests pass a fake one (src/server/test/fake-clock.ts) instead of sleeping. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** A signal that aborts with a TimeoutError after `ms`. */
  timeout(ms: number): AbortSignal;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => sleep(ms),
  timeout: (ms) => AbortSignal.timeout(ms),
};
