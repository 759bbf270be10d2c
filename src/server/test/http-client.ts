/** A tiny browser stand-in for API tests over real HTTP: a cookie jar and manual redirects. */
export class CookieJar {
  /** name -> value, for cookies on path "/" (what tests usually look at). */
  readonly cookies = new Map<string, string>();
  /** Cookies on narrower paths, as a browser keeps them: "path\u0000name" -> value. */
  private readonly scoped = new Map<string, string>();

  header(path = '/'): string {
    const pairs = [...this.cookies].map(([k, v]) => `${k}=${v}`);
    for (const [key, value] of this.scoped) {
      const [cookiePath = '/', name] = key.split('\u0000');
      if (path === cookiePath || path.startsWith(cookiePath.endsWith('/') ? cookiePath : `${cookiePath}/`)) {
        pairs.push(`${name}=${value}`);
      }
    }
    return pairs.join('; ');
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const path = attributes.map((a) => /^\s*path=(.*)$/i.exec(a)?.[1]?.trim()).find(Boolean) ?? '/';
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a),
      );
      const store = path === '/' ? this.cookies : this.scoped;
      const key = path === '/' ? name : `${path}\u0000${name}`;
      if (expired || value === '') store.delete(key);
      else store.set(key, value);
    }
  }

  /** A copy of every cookie, e.g. to replay a request later as an attacker who copied them. */
  clone(): CookieJar {
    const copy = new CookieJar();
    this.cookies.forEach((v, k) => copy.cookies.set(k, v));
    this.scoped.forEach((v, k) => copy.scoped.set(k, v));
    return copy;
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(new URL(url).pathname);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(response);
    return response;
  }
}

export function locationOf(response: Response, base: string): string {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, base).href;
}

/** Follows redirects with the jar until `stop(url)` says to stop, or a non-redirect answer. */
export async function follow(jar: CookieJar, url: string, stop: (url: string) => boolean = () => false) {
  let current = url;
  for (let i = 0; i < 10; i++) {
    if (stop(current)) return { url: current, response: undefined };
    const response = await jar.fetch(current);
    if (response.status < 300 || response.status >= 400) return { url: current, response };
    current = locationOf(response, current);
  }
  throw new Error('too many redirects');
}

export { freePort } from '../lib/free-port.js';
