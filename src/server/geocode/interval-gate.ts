import { systemClock, type Clock } from '../lib/clock.js';

/** Lets a call through now or after a wait (true), or refuses it (false). */
export interface Gate {
  pass(): Promise<boolean>;
}

/**
 * Lets calls through at most one per `intervalMs`, in arrival order. A call that would wait longer than
 * `maxWaitMs` for its turn is refused (returns false) instead of queueing without bound.
 */
export class IntervalGate implements Gate {
  private nextSlot = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly maxWaitMs: number,
    private readonly clock: Clock = systemClock,
  ) {}

  async pass(): Promise<boolean> {
    const now = this.clock.now();
    const slot = Math.max(now, this.nextSlot);
    if (slot - now > this.maxWaitMs) return false;
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await this.clock.sleep(slot - now);
    return true;
  }
}
