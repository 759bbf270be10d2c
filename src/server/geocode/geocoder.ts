import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { AddressSuggestion } from '../../shared/geocode.js';
import type { Config } from '../lib/config.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { IntervalGate, type Gate } from './interval-gate.js';
import type { PlaceParts } from '../../shared/jurisdictions.js';
import { nominatim, photon, type GeocodeProvider, type Located } from './providers.js';

export interface Geocoder {
  /** Suggestions for a typed address; [] when the geocoder is off, down, slow or answers nonsense. */
  search(q: string): Promise<AddressSuggestion[]>;
  /**
   * Where an address is (the provider's best answer), with its country, region and county when the provider names
   * them; undefined when it cannot be placed (or the geocoder fails).
   */
  locate(address: string): Promise<{ lat: number; lon: number; parts?: PlaceParts } | undefined>;
}

export interface GeocoderOptions {
  timeoutMs?: number;
  /**
   * Nominatim's usage policy: at most one request per second for the whole application. The default keeps a
   * margin, so that jitter on the way cannot make two requests arrive less than a second apart.
   */
  nominatimIntervalMs?: number;
  /** A request that would queue longer than this for its turn is answered [] instead. */
  maxQueueMs?: number;
  /** Nominatim's gate shared by every instance (on PostgreSQL); by default this process's own. */
  gate?: Gate;
  clock?: Clock;
}

/** Nominatim's usage policy, 1 request/s, with a margin for jitter; and how long a request may queue for it. */
export const NOMINATIM_INTERVAL_MS = 1100;
export const NOMINATIM_MAX_QUEUE_MS = 2000;

const MAX_SUGGESTIONS = 5;

/** The geocoder when it is off: no suggestions, and no address can be placed. */
export const noGeocoder: Geocoder = { search: async () => [], locate: async () => undefined };

/** The configured provider behind a cache, a timeout, our User-Agent and (for Nominatim) a rate limit. */
export function createGeocoder(
  config: Pick<Config, 'geocoder' | 'publicUrl'>,
  log: FastifyBaseLogger,
  options: GeocoderOptions = {},
): Geocoder {
  const { kind, url } = config.geocoder;
  if (kind === 'off') return noGeocoder;
  const provider: GeocodeProvider = kind === 'photon' ? photon : nominatim;
  const { timeoutMs = 2500, clock = systemClock } = options;
  const gate =
    kind === 'nominatim'
      ? (options.gate ??
        new IntervalGate(
          options.nominatimIntervalMs ?? NOMINATIM_INTERVAL_MS,
          options.maxQueueMs ?? NOMINATIM_MAX_QUEUE_MS,
          clock,
        ))
      : undefined;
  const cache = new LRUCache<string, Located[]>({ max: 1000, ttl: 24 * 3600 * 1000 });
  const inflight = new Map<string, Promise<Located[]>>();
  const userAgent = `HomeCooked/0.1 (+${config.publicUrl})`;

  async function ask(q: string): Promise<Located[]> {
    if (gate && !(await gate.pass())) {
      log.warn({ provider: kind }, 'geocoder rate limit: request refused');
      return [];
    }
    try {
      const response = await fetch(provider.url(url, q, MAX_SUGGESTIONS), {
        headers: { 'user-agent': userAgent, accept: 'application/json' },
        signal: clock.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`${kind} answered HTTP ${response.status}`);
      const suggestions = unique(provider.parse(await response.json()));
      cache.set(q, suggestions);
      return suggestions;
    } catch (error) {
      log.warn({ err: error, provider: kind }, 'geocoder failed; no suggestions');
      return [];
    }
  }

  function lookUp(text: string): Promise<Located[]> {
    const q = text.trim().replace(/\s+/g, ' ').toLowerCase();
    const cached = cache.get(q);
    if (cached) return Promise.resolve(cached);
    let pending = inflight.get(q);
    if (!pending) {
      pending = ask(q).finally(() => inflight.delete(q));
      inflight.set(q, pending);
    }
    return pending;
  }

  return {
    // The spec's shape only: the parts stay on the server.
    search: async (text) => (await lookUp(text)).map(({ parts: _parts, ...suggestion }) => suggestion),
    async locate(address) {
      for (const { lat, lon, parts } of await lookUp(address))
        if (lat !== undefined && lon !== undefined) return { lat, lon, ...(parts ? { parts } : {}) };
      return undefined;
    },
  };
}

/** The browser's field lists suggestions by their text, so each text appears once. */
function unique<T extends AddressSuggestion>(suggestions: T[]): T[] {
  const seen = new Set<string>();
  return suggestions.filter((s) => s.display_name && !seen.has(s.display_name) && seen.add(s.display_name));
}
