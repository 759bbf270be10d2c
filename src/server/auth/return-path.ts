/**
 * A return path after sign-in must be a path on our own site: "/ShoppingCart" yes; "//evil.example",
 * "https://evil.example", "/\\evil.example" or "javascript:..." no. Returns the normalised path or undefined.
 */
export function safeReturnPath(value: string, publicUrl: string): string | undefined {
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  try {
    const base = new URL(publicUrl);
    const url = new URL(value, base);
    if (url.origin !== base.origin) return undefined;
    return url.pathname + url.search + url.hash;
  } catch {
    return undefined;
  }
}
