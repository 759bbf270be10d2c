import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Lets calls through at most one per `intervalMs`, in arrival order. A call that would wait longer than
 * `maxWaitMs` for its turn is refused (returns false) instead of queueing without bound.
 */
export class IntervalGate {
  private nextSlot = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly maxWaitMs: number,
  ) {}

  async pass(): Promise<boolean> {
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    if (slot - now > this.maxWaitMs) return false;
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await sleep(slot - now);
    return true;
  }
}
