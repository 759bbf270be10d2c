import type { FastifyInstance } from 'fastify';

export interface PeriodicTask {
  /** How often it runs once the server is ready. */
  everyMs: number;
  /** Whether it also runs as soon as the server is ready. */
  atStart: boolean;
  /** What the log says when a run fails (the next run tries again). */
  failure: string;
  run(): Promise<void>;
}

/**
 * Runs a housekeeping task (a sweep of expired rows) while the server is up: from `onReady`, every `everyMs`, until
 * `onClose`. Every instance runs its own; the tasks are idempotent deletes, so several at once do no harm.
 */
export function registerPeriodicTask(app: FastifyInstance, task: PeriodicTask): void {
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    try {
      await task.run();
    } catch (error) {
      app.log.warn({ err: error }, task.failure);
    }
  };
  app.addHook('onReady', async () => {
    if (task.atStart) void run();
    timer = setInterval(() => void run(), task.everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
