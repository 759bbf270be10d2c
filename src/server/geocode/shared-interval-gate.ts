import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { callSchedules } from '../db/schema.js';
import { systemClock, type Clock } from '../lib/clock.js';
import type { Gate } from './interval-gate.js';

/**
 * IntervalGate's rule (one call per `intervalMs`, in arrival order, refusing a wait beyond `maxWaitMs`) for every
 * instance together: the next free slot of `service` is a row in PostgreSQL, taken by moving it forward in one
 * atomic update, timed by the database's clock. The caller then waits for its slot on its own clock.
 */
export class SharedIntervalGate implements Gate {
  constructor(
    private readonly db: Db,
    private readonly service: string,
    private readonly intervalMs: number,
    private readonly maxWaitMs: number,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Takes the next slot in one statement: the row is created by the first call ever, moved on by the others. */
  async pass(): Promise<boolean> {
    const interval = sql`${this.intervalMs} * interval '1 millisecond'`;
    const slot = sql`greatest(${callSchedules.nextSlotAt}, now())`;
    const [taken] = await this.db
      .insert(callSchedules)
      .values({ service: this.service, nextSlotAt: sql`now() + ${interval}` })
      .onConflictDoUpdate({
        target: callSchedules.service,
        set: { nextSlotAt: sql`${slot} + ${interval}` },
        setWhere: sql`${slot} <= now() + ${this.maxWaitMs} * interval '1 millisecond'`,
      })
      // The slot taken is the new next slot less one interval.
      .returning({
        waitMs: sql<number>`ceil(extract(epoch from ${callSchedules.nextSlotAt} - now()) * 1000)::int - ${this.intervalMs}`,
      });
    if (!taken) return false;
    const waitMs = Number(taken.waitMs);
    if (waitMs > 0) await this.clock.sleep(waitMs);
    return true;
  }
}
