/**
 * Stripe's request bodies are form-encoded with bracketed keys (`payment_intent_data[capture_method]=manual`,
 * `line_items[0][quantity]=1`): this reads one into nested objects and arrays.
 */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const pair of body.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const rawKey = decodeURIComponent((at < 0 ? pair : pair.slice(0, at)).replaceAll('+', ' '));
    const value = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1).replaceAll('+', ' '));
    const path = rawKey.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1] ?? '');
      const slot = node as Record<string, unknown>;
      if (last) slot[part] = value;
      else {
        slot[part] ??= nextIsIndex ? [] : {};
        node = slot[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}
