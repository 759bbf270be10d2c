import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  JurisdictionFile,
  resolveProfile,
  type JurisdictionNode,
  type PlaceParts,
  type Profile,
} from '../../shared/jurisdictions.js';
import { projectRoot } from '../lib/project-root.js';

/** The folder of the shipped profiles: one YAML file per country, and the fallback ones. */
export const jurisdictionsDir = () => join(projectRoot(), 'jurisdictions');

/** Reads and validates one profile file; throws naming the file and the first wrong field. */
export function readJurisdictionFile(path: string): JurisdictionFile {
  const parsed = JurisdictionFile.safeParse(parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${path}: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** Every shipped profile file, by id. */
export function readJurisdictionFiles(dir: string = jurisdictionsDir()): Map<string, JurisdictionFile> {
  const files = new Map<string, JurisdictionFile>();
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.yaml'))
    .sort()) {
    const file = readJurisdictionFile(join(dir, name));
    if (files.has(file.id)) throw new Error(`${name}: a second profile file with id ${file.id}`);
    files.set(file.id, file);
  }
  return files;
}

/** The profiles, read once, and which one applies to a place. */
export interface Jurisdictions {
  /** The profile of a place: its country file's deepest level with rules, else the deployment's fallback. */
  forPlace(place: PlaceParts | null): Profile;
  /** The ids of the profiles a deployment may name as its fallback (files of no country). */
  fallbacks(): string[];
  /** Whether a profile of this id exists (a level with rules, or a fallback): what an override may name. */
  has(profileId: string): boolean;
  /** Every profile the files give (each level with rules, and the fallback ones), by id. */
  profiles(): Profile[];
}

/** The ids of every profile a file gives: each level with rules, by its path of keys ('us/ca/los-angeles'). */
function profileIds(file: JurisdictionFile): string[] {
  const ids: string[] = [];
  const walk = (node: JurisdictionNode, path: string[]) => {
    if (node.rules) ids.push(path.join('/'));
    for (const [key, child] of Object.entries({ ...node.regions, ...node.counties }))
      walk(child, [...path, key]);
  };
  walk(file.node, [file.id]);
  return ids;
}

/**
 * Reads the profile files and checks that `fallbackId` names a profile of no country (JURISDICTION_FALLBACK): a
 * wrong name stops the server at start-up rather than leaving kitchens without rules.
 */
export function loadJurisdictions(fallbackId: string, dir?: string): Jurisdictions {
  const files = readJurisdictionFiles(dir);
  const byCountry = new Map([...files.values()].flatMap((f) => (f.country ? [[f.country, f] as const] : [])));
  const fallbacks = [...files.values()].filter((f) => f.country === null).map((f) => f.id);
  const fallbackFile = files.get(fallbackId);
  const fallback = fallbackFile && resolveProfile(fallbackFile, null);
  if (!fallbackFile || fallbackFile.country !== null || !fallback)
    throw new Error(
      `JURISDICTION_FALLBACK: no profile "${fallbackId}" for places no country file covers (one of: ${fallbacks.join(', ')})`,
    );
  const fallbackProfile: Profile = { ...fallback, fallback: true };
  const cache = new Map<string, Profile>();
  const ids = new Set([...files.values()].flatMap(profileIds));
  // A level's keys are names it matches (src/shared/jurisdictions.ts), so its id's path resolves to it.
  const all = [...files.values()].flatMap((file) =>
    profileIds(file).flatMap((id) => {
      const [, region = null, county = null] = id.split('/');
      const profile = resolveProfile(
        file,
        file.country ? { countryCode: file.country, region, county } : null,
      );
      return profile ? [{ ...profile, fallback: file.country === null }] : [];
    }),
  );
  return {
    forPlace(place) {
      const key = JSON.stringify([place?.countryCode, place?.region, place?.county]);
      let profile = cache.get(key);
      if (!profile) {
        const file = place?.countryCode ? byCountry.get(place.countryCode.toUpperCase()) : undefined;
        profile = (file && resolveProfile(file, place)) ?? fallbackProfile;
        if (cache.size < 10_000) cache.set(key, profile);
      }
      return profile;
    },
    fallbacks: () => fallbacks,
    has: (id) => ids.has(id),
    profiles: () => all,
  };
}
