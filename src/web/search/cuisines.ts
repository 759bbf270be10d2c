// One collator for every comparison: localeCompare without one builds a new collator per call (most of a
// first view's sorting time on a slow phone). Made when first needed: building it loads the browser's collation
// data, 30 ms of a slow phone's main thread, and a landing page whose data names its cuisines never sorts.
let collator: Intl.Collator | undefined;
const byName = (a: string, b: string) => (collator ??= new Intl.Collator('en')).compare(a, b);

/** The cuisines kitchens actually use: their categories, any case, most used first (at most `max`). */
export function cuisinesOf(kitchens: readonly { category: string }[], max = 12): string[] {
  const byKey = new Map<string, { name: string; count: number }>();
  for (const { category } of kitchens) {
    const name = category.trim();
    const key = name.toLowerCase();
    if (!key) continue;
    const entry = byKey.get(key);
    if (entry) entry.count++;
    else byKey.set(key, { name, count: 1 });
  }
  return [...byKey.values()]
    .sort((a, b) => b.count - a.count || byName(a.name, b.name))
    .slice(0, max)
    .map((c) => c.name);
}
