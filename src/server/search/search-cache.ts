import { LRUCache } from 'lru-cache';
import type { KitchenSearch } from '../../shared/search.js';
import type { ChangeBus } from '../live/bus.js';
import { catalogTopic } from './catalog-topic.js';

/** Distinct searches kept, at most (each is at most MAX_SEARCH_RESULTS kitchens). */
const MAX_SEARCHES = 1000;

/** One key per distinct search: the words as the database compares them (case aside), the tags in one order. */
const keyOf = ({ q, cuisine, diet, near, avoid, mayContain }: KitchenSearch, page?: KitchenPageKey) =>
  JSON.stringify([
    q.toLowerCase(),
    cuisine.toLowerCase(),
    [...diet].sort(),
    avoid.length ? [avoid, mayContain] : null,
    near ? [near.lat, near.lon] : null,
    page ? [page.limit, page.cursor ?? null, page.minute ?? null] : null,
  ]);

/** Which page of a search's kitchens (`/api/kitchens/page`); none for the unpaged search's best 60. */
export interface KitchenPageKey {
  limit: number;
  cursor?: string | undefined;
  /** 'Open now' pages: the minute (since 1970) they were asked in; who is open changes with it. */
  minute?: number | undefined;
}

/**
 * Answers of searches, kept until the catalogue changes. Popular searches repeat ("biryani", a cuisine chip), and a
 * broad one reads thousands of dishes; the catalogue changes far less often than people search it. Every write to a
 * kitchen or a dish publishes the catalogue topic, on every instance through the change bus, and that empties the
 * cache; so does a gap in the bus's feed. A search is stored as its pending answer, so identical searches arriving
 * together run once, and one that started before a change is dropped with the rest.
 */
export class SearchCache {
  private readonly answers = new LRUCache<string, Promise<unknown>>({ max: MAX_SEARCHES });

  constructor(bus: ChangeBus) {
    const catalog = catalogTopic.key();
    bus.on('changed', ({ topic }) => {
      if (topic === catalog) this.answers.clear();
    });
    bus.onResync(() => this.answers.clear());
  }

  /** A kept answer, if there is one (nothing runs). */
  peek<T>(search: KitchenSearch, page?: KitchenPageKey): Promise<T> | undefined {
    return this.answers.get(keyOf(search, page)) as Promise<T> | undefined;
  }

  get<T>(search: KitchenSearch, run: () => Promise<T>, page?: KitchenPageKey): Promise<T> {
    const key = keyOf(search, page);
    const cached = this.answers.get(key);
    // Each key is asked for by one kind of caller (a page key holds a page), so the answer is of its type.
    if (cached) return cached as Promise<T>;
    const pending = run();
    this.answers.set(key, pending);
    // A failure is not an answer: the next search runs again.
    pending.catch(() => {
      if (this.answers.get(key) === pending) this.answers.delete(key);
    });
    return pending;
  }

  get size(): number {
    return this.answers.size;
  }
}
