import { describe, expect, it } from 'vitest';
import { applyDelta } from '../../shared/live-delta.js';
import { deltaJson, diffJson } from './delta.js';

/** A small deterministic random source, so that a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const kitchen = (n: number, rnd: () => number) => ({
  uid: `k${n}`,
  name: `Kitchen ${n}`,
  rating: rnd() < 0.3 ? null : Math.round(rnd() * 50) / 10,
  tags: rnd() < 0.5 ? ['halal'] : [],
  owner: { name: `Owner ${n}`, photo: rnd() < 0.5 ? null : `/p/${n}.jpg` },
});

/** A random edit of a list: items renamed, removed, inserted, moved, or duplicated. */
function edit(list: ReturnType<typeof kitchen>[], rnd: () => number, next: () => number) {
  const out = list.map((k) => structuredClone(k));
  const edits = Math.floor(rnd() * 6);
  for (let e = 0; e < edits; e++) {
    const i = Math.floor(rnd() * (out.length + 1));
    const what = rnd();
    if (what < 0.3 && out[i]) out[i] = { ...out[i], name: `Renamed ${next()}` };
    else if (what < 0.5 && out[i]) out.splice(i, 1);
    else if (what < 0.7) out.splice(i, 0, kitchen(next(), rnd));
    else if (what < 0.85 && out[i]) out.push(...out.splice(i, 1));
    else if (out[i]) out.splice(i, 0, structuredClone(out[i]));
    else if (what < 0.9 && out[0]) out[0].owner.photo = null;
  }
  return out;
}

describe('live deltas', () => {
  it('rebuild the new list from the old one exactly, on random edits of random lists', () => {
    const rnd = random(32);
    let counter = 1000;
    for (let round = 0; round < 200; round++) {
      const old = Array.from({ length: Math.floor(rnd() * 60) }, (_, n) => kitchen(n, rnd));
      const next = edit(old, rnd, () => counter++);
      const op = diffJson(old, next);
      const rebuilt = applyDelta(
        JSON.parse(JSON.stringify(old)),
        JSON.parse(JSON.stringify(op)) as typeof op,
      );
      expect(rebuilt).toEqual(next);
      expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(next));
    }
  });

  it('rebuild objects: changed, added and removed keys, nested lists, a key named __proto__', () => {
    const old = { kitchen: { uid: 'a', name: 'Dal' }, items: [1, 2, 3, 4], gone: true, same: 'x' };
    const next = JSON.parse(
      '{"kitchen":{"uid":"a","name":"Daal"},"items":[1,2,4,5],"same":"x","__proto__":{"polluted":1}}',
    ) as unknown;
    const op = diffJson(old, next);
    const rebuilt = applyDelta(old, JSON.parse(JSON.stringify(op)) as typeof op);
    expect(rebuilt).toEqual(next);
    expect(Object.getPrototypeOf(rebuilt)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(old).toEqual({ kitchen: { uid: 'a', name: 'Dal' }, items: [1, 2, 3, 4], gone: true, same: 'x' });
  });

  it('change one item of fifty in a fraction of the bytes, and keep the unchanged items shared', () => {
    const rnd = random(1);
    const old = Array.from({ length: 50 }, (_, n) => kitchen(n, rnd));
    const next = old.map((k, i) => (i === 20 ? { ...k, name: 'Bench Kitchen M1' } : k));
    const json = deltaJson(JSON.stringify(old), JSON.stringify(next));
    expect(json).toBeDefined();
    expect(json?.length).toBeLessThan(JSON.stringify(next).length / 10);
    expect(JSON.parse(json ?? '')).toEqual({ a: [[0, 20], { v: next[20] }, [21, 29]] });
    const rebuilt = applyDelta(old, JSON.parse(json ?? '') as Parameters<typeof applyDelta>[1]) as unknown[];
    expect(rebuilt[0]).toBe(old[0]);
    expect(rebuilt).toEqual(next);
  });

  it('are not sent when they are not smaller than the value (the snapshot is)', () => {
    expect(deltaJson('[1,2,3]', '[4,5,6]')).toBeUndefined();
    expect(deltaJson('{"a":1}', '[1]')).toBeUndefined();
    expect(deltaJson('null', '{"a":1}')).toBeUndefined();
  });

  it('refuse an op that does not fit the value held', () => {
    expect(() => applyDelta([1, 2], { a: [[1, 5]] })).toThrow();
    expect(() => applyDelta({ a: 1 }, { a: [[0, 1]] })).toThrow();
    expect(() => applyDelta([1], { o: {} })).toThrow();
  });
});
