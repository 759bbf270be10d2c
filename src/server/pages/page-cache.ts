import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { Snapshot } from '../live/hub.js';

const gzip = promisify(gzipCallback);

/** A rendered page, as sent. */
export interface RenderedPage {
  status: number;
  /** Encoded once: a string would be encoded again for every answer. */
  html: Buffer;
  gzipped: Buffer;
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
    const page = html().then(async (text) => {
      const bytes = Buffer.from(text);
      return { status, html: bytes, gzipped: await gzip(bytes) };
    });
    const fresh: Entry = { snapshots, validUntil, page };
    this.entries.set(key, fresh);
    // A failed render is not kept: the next request tries again.
    page.catch(() => {
      if (this.entries.get(key) === fresh) this.entries.delete(key);
    });
    return page;
  }
}
