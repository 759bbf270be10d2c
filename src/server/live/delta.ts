import { isPlainObject, type DeltaOp } from '../../shared/live-delta.js';

/**
 * The op that turns `old` into `next` (both JSON values), for `applyDelta` (src/shared/live-delta.ts); its JSON is
 * at most a little longer than `next`'s. Arrays are matched item by item by their JSON, so moves, removals and
 * insertions cost nothing but the items new or changed; objects by key, each changed key's value recursively.
 */
export function diffJson(old: unknown, next: unknown): DeltaOp {
  const whole = { v: next };
  if (Array.isArray(old) && Array.isArray(next)) return smaller(diffArray(old, next), whole);
  if (isPlainObject(old) && isPlainObject(next)) return smaller(diffObject(old, next), whole);
  return whole;
}

/**
 * The delta of a topic's JSON from `oldJson` to `nextJson`, as the JSON of its op, or undefined when it is not
 * smaller than the whole value (a client is then sent the snapshot).
 */
export function deltaJson(oldJson: string, nextJson: string): string | undefined {
  const op = diffJson(JSON.parse(oldJson), JSON.parse(nextJson));
  if ('v' in op) return undefined;
  const json = JSON.stringify(op);
  return json.length < nextJson.length ? json : undefined;
}

function smaller(op: DeltaOp, whole: { v: unknown }): DeltaOp {
  return JSON.stringify(op).length < JSON.stringify(whole).length ? op : whole;
}

function diffArray(old: unknown[], next: unknown[]): DeltaOp {
  // Where each old item is, by its JSON (equal items are used in order).
  const at = new Map<string, number[]>();
  old.forEach((item, i) => {
    const key = JSON.stringify(item);
    const list = at.get(key);
    if (list) list.push(i);
    else at.set(key, [i]);
  });
  const parts: ([number, number] | { v: unknown })[] = [];
  for (const item of next) {
    const i = at.get(JSON.stringify(item))?.shift();
    const last = parts.at(-1);
    if (i === undefined) parts.push({ v: item });
    else if (Array.isArray(last) && last[0] + last[1] === i) last[1]++;
    else parts.push([i, 1]);
  }
  return { a: parts };
}

function diffObject(old: Record<string, unknown>, next: Record<string, unknown>): DeltaOp {
  const o: Record<string, DeltaOp> = {};
  for (const key of Object.keys(next)) {
    const had = Object.hasOwn(old, key);
    if (had && JSON.stringify(old[key]) === JSON.stringify(next[key])) continue;
    Object.defineProperty(o, key, {
      value: had ? diffJson(old[key], next[key]) : { v: next[key] },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const r = Object.keys(old).filter((key) => !Object.hasOwn(next, key));
  return r.length > 0 ? { o, r } : { o };
}
