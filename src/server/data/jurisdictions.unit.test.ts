import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JurisdictionFile, type JurisdictionNode } from '../../shared/jurisdictions.js';
import { jurisdictionsDir, loadJurisdictions, readJurisdictionFile } from './jurisdictions.js';

const shipped = readdirSync(jurisdictionsDir()).filter((name) => name.endsWith('.yaml'));

/** Every level of a file with its path, so each level with rules can be checked for its sources. */
function levels(node: JurisdictionNode, path: string[] = []): { path: string[]; node: JurisdictionNode }[] {
  const children = { ...node.regions, ...node.counties };
  return [
    { path, node },
    ...Object.entries(children).flatMap(([key, child]) => levels(child, [...path, key])),
  ];
}

describe.each(shipped)('the shipped profile %s', (name) => {
  const file = readJurisdictionFile(join(jurisdictionsDir(), name));

  it('validates against the schema', () => {
    expect(JurisdictionFile.safeParse(file).success).toBe(true);
    expect(name).toBe(`${file.id}.yaml`);
  });

  it('names a source, with the date it was read, for every level that sets rules', () => {
    const ruled = levels(file.node).filter(({ node }) => node.rules !== undefined);
    expect(ruled.length).toBeGreaterThan(0);
    for (const { path, node } of ruled) {
      expect(node.sources?.length, `${name} ${path.join('/')}`).toBeGreaterThan(0);
      for (const source of node.sources ?? []) {
        expect(source.title).not.toBe('');
        expect(Date.parse(source.read), `${name} ${path.join('/')}: ${source.title}`).toBeLessThanOrEqual(
          Date.parse('2026-12-31'),
        );
      }
    }
  });
});

describe('which profile a place gets', () => {
  const jurisdictions = loadJurisdictions('none');
  const place = (countryCode: string | null, region: string | null = null, county: string | null = null) =>
    jurisdictions.forPlace({ countryCode, region, county });

  it('gives a Los Angeles County kitchen the state’s MEHKO rules, allowed to sell, and says why', () => {
    const profile = place('US', 'California', 'Los Angeles County');
    expect(profile).toMatchObject({ id: 'us/ca/los-angeles', name: 'Los Angeles County', fallback: false });
    expect(profile.rules).toMatchObject({
      sellingAllowed: true,
      caps: { mealsPerDay: 30, mealsPerWeek: 90, grossPerYear: { amountMinor: 10_000_000, currency: 'USD' } },
      permit: { name: 'MEHKO health permit', showOnMenu: true },
      thirdPartyDelivery: false,
      sameDayService: true,
      forbiddenWords: ['catering', 'caterer'],
    });
    expect(profile.rules.certificates.map((c) => [c.name, c.who, c.withinDays])).toEqual([
      ['Food safety manager certificate', 'operator', null],
      ['Food handler card', 'helpers', 30],
    ]);
    expect(profile.levels.map((l) => l.name)).toEqual(['California', 'Los Angeles County']);
    expect(profile.levels[1]!.rules).toEqual(['sellingAllowed', 'sellingNote']);
  });

  it('gives Santa Barbara County its own 60 meals a week and $50,000 a year, the day’s cap from the state', () => {
    const profile = place('us', 'CA', 'Santa Barbara');
    expect(profile.rules.caps).toMatchObject({
      mealsPerDay: 30,
      mealsPerWeek: 60,
      grossPerYear: { amountMinor: 5_000_000 },
    });
  });

  it('refuses selling in a California county without an ordinance', () => {
    const profile = place('US', 'California', 'Nowhere County');
    expect(profile).toMatchObject({ id: 'us/ca', name: 'California', rules: { sellingAllowed: false } });
  });

  it('asks UK kitchens to register with the FSA’s local authority, with no caps', () => {
    const profile = place('GB', 'England', 'Greater London');
    expect(profile).toMatchObject({ id: 'gb', rules: { permit: { name: 'Food business registration' } } });
    expect(profile.rules.caps).toMatchObject({ mealsPerDay: null, mealsPerWeek: null, grossPerYear: null });
  });

  it('falls back to the deployment’s profile where no file covers the place (and where it is unknown)', () => {
    for (const profile of [place('US', 'Texas'), place('FR'), jurisdictions.forPlace(null)])
      expect(profile).toMatchObject({ id: 'none', name: 'No rules configured', fallback: true });
    expect(place('FR').rules).toMatchObject({ sellingAllowed: true, permit: null });
  });

  it('knows the id of every profile a place may get, which an operator override names', () => {
    for (const profile of [
      place('US', 'California', 'Los Angeles County'),
      place('US', 'California', 'Santa Barbara County'),
      place('US', 'California', 'Orange County'),
      place('US', 'California'),
      place('GB'),
      place('FR'),
    ])
      expect(jurisdictions.has(profile.id), profile.id).toBe(true);
    expect(jurisdictions.has('us/ca/nowhere')).toBe(false);
    expect(jurisdictions.has('us')).toBe(false); // the country level sets no rules of its own
  });

  it('lists every profile, each as the place it is for gets it (the operators’ caps by place)', () => {
    const profiles = jurisdictions.profiles();
    expect(profiles.map((p) => p.id)).toEqual(
      expect.arrayContaining(['us/ca', 'us/ca/los-angeles', 'us/ca/santa-barbara', 'gb', 'none']),
    );
    for (const profile of profiles) expect(jurisdictions.has(profile.id), profile.id).toBe(true);
    const byId = new Map(profiles.map((p) => [p.id, p]));
    expect(byId.get('us/ca/los-angeles')).toEqual(place('US', 'California', 'Los Angeles County'));
    expect(byId.get('us/ca/santa-barbara')?.rules.caps.mealsPerWeek).toBe(60);
    expect(byId.get('none')?.fallback).toBe(true);
  });

  it('refuses to start with a fallback that names no profile of no country', () => {
    expect(() => loadJurisdictions('us')).toThrow(/JURISDICTION_FALLBACK/);
    expect(() => loadJurisdictions('nowhere')).toThrow(/JURISDICTION_FALLBACK: no profile "nowhere"/);
  });

  it('names the file and the field of a profile that does not validate', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jurisdictions-'));
    writeFileSync(
      join(dir, 'xx.yaml'),
      'id: xx\ncountry: XX\nversion: 1\nnode:\n  name: X\n  rules:\n    caps: { mealsPerDay: -1 }\n',
    );
    expect(() => loadJurisdictions('none', dir)).toThrow(/xx\.yaml: node\.rules\.caps\.mealsPerDay/);
  });
});
