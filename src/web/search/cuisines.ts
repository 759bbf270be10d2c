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
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((c) => c.name);
}
