import { useQuery } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import type { AllergyProfile } from '../../shared/allergen-declaration.js';
import { isAllergen, type Allergen } from '../../shared/allergen-set.js';
import { useSession } from '../auth/use-session.js';
import { api } from '../lib/api-client.js';

export const allergiesKey = ['account', 'allergies'] as const;

/** What this browser keeps: a visitor's allergies (for the visit and after), and whether to hide dishes with them. */
interface Kept {
  allergens: Allergen[];
  mayContainMatters: boolean;
  hide: boolean;
}
const STORAGE_KEY = 'homecooked.allergies.v1';
const NOTHING: Kept = { allergens: [], mayContainMatters: true, hide: false };
const listeners = new Set<() => void>();
let cached: { raw: string | null; kept: Kept } | undefined;

export function read(): Kept {
  let raw: string | null;
  try {
    raw = localStorage.getItem(STORAGE_KEY);
  } catch {
    return NOTHING;
  }
  if (cached?.raw === raw) return cached.kept;
  let kept = NOTHING;
  try {
    const parsed = raw ? (JSON.parse(raw) as Partial<Kept>) : {};
    kept = {
      allergens: Array.isArray(parsed.allergens) ? parsed.allergens.filter(isAllergen) : [],
      mayContainMatters: parsed.mayContainMatters !== false,
      hide: parsed.hide === true,
    };
  } catch {
    // A damaged value is no allergies.
  }
  cached = { raw, kept };
  return kept;
}

export function write(next: Kept) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Private mode without storage: kept for this page only.
    cached = { raw: JSON.stringify(next), kept: next };
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === STORAGE_KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * 'Your allergies' as this page knows them: a signed-in customer's from their account, a visitor's from this
 * browser. The server's HTML knows none: marks and hiding come once the page runs (no hydration mismatch).
 */
export function useAllergyProfile() {
  const kept = useSyncExternalStore(subscribe, read, () => NOTHING);
  const session = useSession();
  const signedIn = !!session.data?.customer;
  const account = useQuery({
    queryKey: allergiesKey,
    queryFn: () => api.get<AllergyProfile>('/api/account/allergies'),
    enabled: signedIn,
    staleTime: 60_000,
  });
  const profile = signedIn && account.data ? account.data : kept;
  return {
    profile: { allergens: profile.allergens, mayContainMatters: profile.mayContainMatters },
    /** Kept in the account (signed in) or in this browser. */
    signedIn,
    hide: kept.hide,
    setHide: (hide: boolean) => write({ ...read(), hide }),
  };
}

/** 'Hide dishes with my allergens' as a search sends it (`avoid`, `mayContain`); none while not hiding. */
export interface AvoidedAllergens {
  avoid: Allergen[];
  mayContain: boolean;
}

/** The allergens a search leaves out: the profile's, when 'Hide dishes with my allergens' is on and it has some. */
export function useAvoidedAllergens(): AvoidedAllergens | undefined {
  const { profile, hide } = useAllergyProfile();
  const avoid = profile.allergens.join(',');
  const { mayContainMatters } = profile;
  return useMemo(
    () =>
      hide && avoid ? { avoid: avoid.split(',') as Allergen[], mayContain: mayContainMatters } : undefined,
    [hide, avoid, mayContainMatters],
  );
}
