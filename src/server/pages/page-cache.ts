import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Coding } from '../lib/accept-encoding.js';
import { inEveryCoding } from '../lib/compressed.js';
import type { Snapshot } from '../live/hub.js';

/** A rendered page, as sent: in each coding, compressed once per render. */
export interface RenderedPage {
  status: number;
  /** Encoded once: a string would be encoded again for every answer. */
  bodies: Record<Coding, Buffer>;
  /** A strong validator per coding (a coding is a representation of its own): `"<hash of the html>-<coding>"`. */
  etags: Record<Coding, string>;
  /** The answer's own headers in each coding, made once (the security headers are added to every answer). */
  headers: Record<Coding, Readonly<Record<string, string>>>;
}

/** The page in every coding, and their ETags. */
export async function encodePage(status: number, text: string): Promise<RenderedPage> {
  const html = Buffer.from(text);
  const bodies = await inEveryCoding(html);
  const hash = createHash('sha256').update(html).digest('base64url').slice(0, 27);
  const etags: Record<Coding, string> = { br: `"${hash}-br"`, gzip: `"${hash}-gzip"`, identity: `"${hash}"` };
  const headersOf = (coding: Coding) => ({
    'content-type': 'text/html; charset=utf-8',
    // Asked again on every visit: a 304 when the page has not changed.
    'cache-control': 'no-cache',
    // The language comes from the `lang` cookie or Accept-Language.
    vary: 'accept-encoding, accept-language, cookie',
    etag: etags[coding],
    ...(coding === 'identity' ? {} : { 'content-encoding': coding }),
  });
  return {
    status,
    bodies,
    etags,
    headers: { br: headersOf('br'), gzip: headersOf('gzip'), identity: headersOf('identity') },
  };
}

interface Entry {
  /** The topics' snapshots it was rendered from: the hub hands out a new object after every change. */
  snapshots: readonly Snapshot[];
  /** It also shows the time ('Open now'): rendered again at the next opening or closing, or after a minute. */
  validUntil: number;
  page: Promise<RenderedPage>;
}

/**
 * Server-rendered pages, each rendered once per change of the live topics it shows (keyed by their snapshots'
 * identity in the LiveHub), not once per request; requests arriving while it renders share that render.
 */
export class PageCache {
  private readonly entries = new LRUCache<string, Entry>({
    max: 2000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: () => 64 * 1024,
  });

  /** Renders counted since start (for tests: "once per change"). */
  renders = 0;

  get(
    key: string,
    snapshots: readonly Snapshot[],
    now: number,
    render: () => { status: number; validUntil: number; html: () => Promise<string> },
  ): Promise<RenderedPage> {
    const entry = this.entries.get(key);
    if (entry && now < entry.validUntil && entry.snapshots.length === snapshots.length) {
      if (entry.snapshots.every((snapshot, i) => snapshot === snapshots[i])) return entry.page;
      // A change notice can arrive twice (our own commit's, then the database's notification): the reload it
      // causes gives a new snapshot of the same data, which needs no new render.
      if (entry.snapshots.every((snapshot, i) => snapshot.json === snapshots[i]?.json)) {
        entry.snapshots = snapshots;
        return entry.page;
      }
    }
    const { status, validUntil, html } = render();
    this.renders++;
    const page = html().then((text) => encodePage(status, text));
    const fresh: Entry = { snapshots, validUntil, page };
    this.entries.set(key, fresh);
    // A failed render is not kept: the next request tries again.
    page.catch(() => {
      if (this.entries.get(key) === fresh) this.entries.delete(key);
    });
    return page;
  }
}
