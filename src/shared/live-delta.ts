/**
 * What changed between two versions of a topic's JSON value, as a tab's stream sends it (`LIVE_EVENT.delta`): the
 * server computes it once per change (src/server/live/delta.ts) and the browser applies it to the version it holds.
 *
 * - `{ v }`: the value itself, whole.
 * - `{ a }`: an array, built from its parts in order: `[start, count]` copies `count` items of the old array from
 *   `start`, `{ v }` is one item given whole.
 * - `{ o, r }`: an object: the old one with each key of `o` set to its op applied to the old key's value, and the
 *   keys of `r` removed.
 */
export type DeltaOp =
  | { v: unknown }
  | { a: ([number, number] | { v: unknown })[] }
  | { o: Record<string, DeltaOp>; r?: string[] };

/** Applies `op` to `old` (which it does not change): the new value. Old items and keys it keeps are shared. */
export function applyDelta(old: unknown, op: DeltaOp): unknown {
  if ('v' in op) return op.v;
  if ('a' in op) {
    if (!Array.isArray(old)) throw new Error('delta: not an array');
    const next: unknown[] = [];
    for (const part of op.a) {
      if (Array.isArray(part)) {
        const [start, count] = part;
        if (start < 0 || start + count > old.length) throw new Error('delta: out of range');
        for (let i = start; i < start + count; i++) next.push(old[i]);
      } else next.push(part.v);
    }
    return next;
  }
  if (!isPlainObject(old)) throw new Error('delta: not an object');
  const next: Record<string, unknown> = { ...old };
  for (const [key, keyOp] of Object.entries(op.o))
    // A key named `__proto__` (JSON may have one) is a key like any other, not the object's prototype.
    Object.defineProperty(next, key, {
      value: applyDelta(Object.hasOwn(old, key) ? old[key] : undefined, keyOp),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  for (const key of op.r ?? []) delete next[key];
  return next;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
