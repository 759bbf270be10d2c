import { performance } from 'node:perf_hooks';

/** Told how long each database statement took, in seconds (for the metrics). */
export type QueryObserver = (seconds: number) => void;

interface Queryable {
  query: (...args: never[]) => unknown;
}

/**
 * Times every `query` of `target` (a pg client or PGlite and its transactions) for whoever observes it. The
 * drivers have no hook of their own for this; wrapping the one method every statement goes through keeps the
 * feature code unaware of it.
 */
export function timeQueries(target: Queryable, observers: ReadonlySet<QueryObserver>): void {
  const query = target.query.bind(target) as (...args: unknown[]) => unknown;
  (target as { query: unknown }).query = (...args: unknown[]) => {
    if (observers.size === 0) return query(...args);
    const start = performance.now();
    const observe = () => {
      const seconds = (performance.now() - start) / 1000;
      for (const observer of observers) observer(seconds);
    };
    // The pool's own `query` (a statement outside a transaction) calls the client's with a callback, not a promise.
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      const done = (...results: unknown[]) => {
        observe();
        return (callback as (...a: unknown[]) => unknown)(...results);
      };
      return query(...args.slice(0, -1), done);
    }
    const result = query(...args);
    if (result instanceof Promise) result.then(observe, observe);
    return result;
  };
}
