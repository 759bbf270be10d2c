import type { Clock } from '../lib/clock.js';

/** A clock that moves only when a test says so: `advance(ms)` runs what became due, in order. */
export class FakeClock implements Clock {
  private time = 0;
  private readonly due: { at: number; run: () => void }[] = [];
  /** Every wait asked of `sleep`, in milliseconds. */
  readonly sleeps: number[] = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((resolve) => this.at(ms, resolve));
  }

  timeout(ms: number): AbortSignal {
    const controller = new AbortController();
    this.at(ms, () => controller.abort(new DOMException('The operation timed out', 'TimeoutError')));
    return controller.signal;
  }

  advance(ms: number): void {
    this.time += ms;
    this.due.sort((a, b) => a.at - b.at);
    while (this.due[0] && this.due[0].at <= this.time) this.due.shift()?.run();
  }

  private at(ms: number, run: () => void): void {
    this.due.push({ at: this.time + ms, run });
  }
}
