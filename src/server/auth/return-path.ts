/**
 * A return path after sign-in must be a path on our own site: "/ShoppingCart" yes; "https://evil.example",
 * "//evil.example", "/\\evil.example", "javascript:..." no, nor anything a URL parser turns into one
 * ("/.//evil.example", "/%2e//evil.example", "/\t/evil.example"). The path is resolved against our origin as a
 * browser would, and the result must stay there and be unambiguous: a normalised path that starts with "//" or
 * holds a backslash reads as another host to a browser. Returns that origin-relative path, or undefined.
 */
export function safeReturnPath(value: string, publicUrl: string): string | undefined {
  // URL parsers drop tabs and newlines and read a backslash as "/": refuse such input outright rather than guess.
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\t\n\r]/.test(value)) return undefined;
  try {
    const base = new URL(publicUrl);
    const url = new URL(value, base);
    if (url.origin !== base.origin) return undefined;
    if (url.pathname.startsWith('//') || url.pathname.includes('\\')) return undefined;
    return url.pathname + url.search + url.hash;
  } catch {
    return undefined;
  }
}
