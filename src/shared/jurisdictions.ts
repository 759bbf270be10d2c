import { z } from 'zod';
import { t } from './i18n/translator.js';

/**
 * Rules of places ("jurisdiction profiles") as data: one YAML file per country in `jurisdictions/`, its regions
 * (states) and counties nested inside, each level naming its sources and the date they were read. A level's `rules`
 * override its parent's key by key; a place gets the rules of the deepest level that matches its address.
 */

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');

/** Where a rule comes from: the law or the authority's page, and when it was read. */
export const JurisdictionSource = z.strictObject({
  title: z.string().min(1),
  /** An https address, or a file of this repository (docs/…). */
  url: z.union([z.url({ protocol: /^https$/ }), z.string().regex(/^docs\/[\w./-]+\.md$/)]),
  read: isoDate,
  /** What this source says that matters here, or what to check again. */
  note: z.string().optional(),
});
export type JurisdictionSource = z.infer<typeof JurisdictionSource>;

export const CERTIFICATE_HOLDERS = ['operator', 'helpers'] as const;

/** A certificate the kitchen's people must hold (a food safety manager certificate, food handler cards). */
export const CertificateRule = z.strictObject({
  name: z.string().min(1),
  who: z.enum(CERTIFICATE_HOLDERS),
  /** Within how many days of starting (null: before starting). */
  withinDays: z.number().int().min(0).nullable(),
  /** Where the law says so (the days, who needs it). */
  source: JurisdictionSource.optional(),
});
export type CertificateRule = z.infer<typeof CertificateRule>;

/** What counts as one meal: a dish portion (each dish of an order), or a whole order. */
export const MEAL_UNITS = ['dish-portion', 'order'] as const;

const capFields = {
  mealsPerDay: z.number().int().min(1).nullable(),
  mealsPerWeek: z.number().int().min(1).nullable(),
  /** Gross sales a year (the dishes' prices, fees excluded), in minor units of `currency`. */
  grossPerYear: z
    .strictObject({ amountMinor: z.number().int().min(1), currency: z.string().regex(/^[A-Z]{3}$/) })
    .nullable(),
  meal: z.enum(MEAL_UNITS),
};
export const Caps = z.strictObject(capFields);
export type Caps = z.infer<typeof Caps>;

export const Rules = z.strictObject({
  /** Whether a home kitchen may sell here at all; `sellingNote` says why not, or under what. */
  sellingAllowed: z.boolean(),
  sellingNote: z.string().nullable(),
  permit: z
    .strictObject({
      name: z.string().min(1),
      /** The issuing authority ('the county's environmental health department'). */
      issuer: z.string().min(1),
      /** A regular expression the number matches, where its format is known. */
      numberPattern: z.string().nullable().optional(),
      /** Whether the permit number must be shown to customers (on the menu page). */
      showOnMenu: z.boolean(),
    })
    .nullable(),
  certificates: z.array(CertificateRule),
  caps: Caps,
  /** Whether the food may be handed to a third-party delivery service. */
  thirdPartyDelivery: z.boolean(),
  /** Whether food must be served (delivered or picked up) on the day it is made. */
  sameDayService: z.boolean(),
  /** Words a listing may not use (a MEHKO may not call itself "catering"). */
  forbiddenWords: z.array(z.string().min(1)),
});
export type Rules = z.infer<typeof Rules>;

/** A level's rules: any of them, its caps key by key; the others come from the levels above it. */
export const RulesOfLevel = Rules.partial().extend({ caps: z.strictObject(capFields).partial().optional() });
export type RulesOfLevel = z.infer<typeof RulesOfLevel>;

/** One level of a country file: the names that match it, its sources, its rules, and the levels inside it. */
export interface JurisdictionNode {
  name: string;
  /** Names an address part may have for this level (matched without case or accents); the key matches too. */
  match?: string[];
  sources?: JurisdictionSource[];
  rules?: RulesOfLevel;
  /** A reviewer's note: what was uncertain when the profile was written. */
  review?: string;
  regions?: Record<string, JurisdictionNode>;
  counties?: Record<string, JurisdictionNode>;
}

export const JurisdictionNode: z.ZodType<JurisdictionNode> = z.lazy(() =>
  z.strictObject({
    name: z.string().min(1),
    match: z.array(z.string().min(1)).optional(),
    sources: z.array(JurisdictionSource).min(1).optional(),
    rules: RulesOfLevel.optional(),
    review: z.string().optional(),
    regions: z.record(z.string().min(1), JurisdictionNode).optional(),
    counties: z.record(z.string().min(1), JurisdictionNode).optional(),
  }),
);

/** A country's file (`country` is its ISO 3166-1 alpha-2 code), or the fallback profile's (`country: null`). */
export const JurisdictionFile = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullable(),
  /** Bumped when a rule changes, so a kitchen's rules page can say which version it follows. */
  version: z.number().int().min(1),
  node: JurisdictionNode,
});
export type JurisdictionFile = z.infer<typeof JurisdictionFile>;

/** What the geocoder says of where an address is. */
export interface PlaceParts {
  countryCode: string | null;
  region: string | null;
  county: string | null;
}

/** The rules a kitchen follows: the profile's id and name, its version, every rule, and why (the levels matched). */
export const Profile = z.strictObject({
  id: z.string(),
  name: z.string(),
  version: z.number().int(),
  rules: Rules,
  /** The levels that gave rules, country first, each with its sources: why these rules apply. */
  levels: z.array(
    z.strictObject({
      name: z.string(),
      sources: z.array(JurisdictionSource),
      review: z.string().nullable(),
      rules: z.array(z.string()),
    }),
  ),
  /** True when no profile covers the place and the deployment's fallback applies. */
  fallback: z.boolean(),
});
export type Profile = z.infer<typeof Profile>;

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+(county|council)$/u, '')
    .trim();

function findChild(
  children: Record<string, JurisdictionNode> | undefined,
  part: string | null,
): [string, JurisdictionNode] | undefined {
  if (!children || !part) return undefined;
  const wanted = fold(part);
  return Object.entries(children).find(
    ([key, node]) =>
      fold(key) === wanted || [node.name, ...(node.match ?? [])].some((n) => fold(n) === wanted),
  );
}

/** Rules no level gave: nothing refused, nothing capped. */
const BASE_RULES: Rules = Rules.parse({
  sellingAllowed: true,
  sellingNote: null,
  permit: null,
  certificates: [],
  caps: { mealsPerDay: null, mealsPerWeek: null, grossPerYear: null, meal: 'dish-portion' },
  thirdPartyDelivery: true,
  sameDayService: false,
  forbiddenWords: [],
});

/** Merges the rules given by each level, a later level's key replacing an earlier's (caps key by key). */
function merged(levels: readonly RulesOfLevel[]): Rules {
  let rules: Rules = BASE_RULES;
  for (const level of levels) rules = { ...rules, ...level, caps: { ...rules.caps, ...level.caps } };
  return rules;
}

/** The profile of a file's root (the fallback profile) or of a place in it; undefined when no level of it has rules. */
export function resolveProfile(file: JurisdictionFile, place: PlaceParts | null): Profile | undefined {
  const path: [string, JurisdictionNode][] = [[file.id, file.node]];
  const region = findChild(file.node.regions, place?.region ?? null);
  if (region) {
    path.push(region);
    const county = findChild(region[1].counties, place?.county ?? null);
    if (county) path.push(county);
  }
  const ruled = path.filter(([, node]) => node.rules !== undefined);
  if (!ruled.length) return undefined;
  const ids = path.slice(0, path.indexOf(ruled.at(-1)!) + 1).map(([key]) => key);
  return {
    id: ids.join('/'),
    name: ruled.at(-1)![1].name,
    version: file.version,
    rules: merged(ruled.map(([, node]) => node.rules!)),
    levels: ruled.map(([, node]) => ({
      name: node.name,
      sources: node.sources ?? [],
      review: node.review ?? null,
      rules: Object.keys(node.rules!),
    })),
    fallback: false,
  };
}

/** Which meals a cart counts: its dish portions, or one for the whole order. */
export const mealsOf = (caps: Caps, dishes: number) => (caps.meal === 'order' ? 1 : dishes);

/** Whether a profile caps anything (the order then counts its meals and gross in its transaction). */
export const hasCaps = (caps: Caps) =>
  caps.mealsPerDay !== null || caps.mealsPerWeek !== null || caps.grossPerYear !== null;

/** The API's answer for a kitchen's 'Rules for your kitchen' page. */
/**
 * Whether a kitchen is listed (on the landing page and in search, taking orders): at once where its place's rules ask
 * for no permit; after an operator approved it where they do ('awaiting-approval', then 'listed', or 'changes-asked'
 * or 'refused' with the operator's reason); never where its place lets no home kitchen sell ('not-allowed').
 */
export const KITCHEN_LISTINGS = [
  'listed',
  'awaiting-approval',
  'changes-asked',
  'refused',
  'not-allowed',
] as const;
export type KitchenListing = (typeof KITCHEN_LISTINGS)[number];

/** The listing a kitchen starts with in a place (and takes again when it moves to another). */
export const firstListing = (rules: Rules): KitchenListing =>
  !rules.sellingAllowed ? 'not-allowed' : rules.permit ? 'awaiting-approval' : 'listed';

export const KitchenListingState = z.strictObject({
  state: z.enum(KITCHEN_LISTINGS),
  /** The operator's reason when they asked for changes or refused ('' otherwise). */
  reason: z.string(),
  /** When an operator last decided (null: nobody has). */
  decidedAt: z.string().nullable(),
});
export type KitchenListingState = z.infer<typeof KitchenListingState>;

/** The profile values an operator may override, for one jurisdiction or for one kitchen (ADR 27). */
export const OVERRIDE_KEYS = ['mealsPerDay', 'mealsPerWeek', 'grossPerYear'] as const;
export type OverrideKey = (typeof OVERRIDE_KEYS)[number];
export const OVERRIDE_SCOPES = ['profile', 'kitchen'] as const;

/** `POST /api/operator/rule-overrides`: a value for a profile (by its id) or a kitchen (by its uid), and why. */
export const RuleOverrideInput = z.object({
  scope: z.enum(OVERRIDE_SCOPES),
  /** The profile's id ('us/ca/los-angeles') or the kitchen's uid. */
  target: z.string().trim().min(1).max(200),
  key: z.enum(OVERRIDE_KEYS),
  /** Meals, or the gross in minor units of the deployment's currency; null: no cap. */
  value: z.number().int().min(1).max(1_000_000_000).nullable(),
  reason: z
    .string()
    .trim()
    .min(1, { error: () => t('Say why the value is overridden') })
    .max(500),
});
export type RuleOverrideInput = z.infer<typeof RuleOverrideInput>;

/** An override in force: what, where, who set it, when and why. */
export const RuleOverride = z.strictObject({
  scope: z.enum(OVERRIDE_SCOPES),
  target: z.string(),
  key: z.enum(OVERRIDE_KEYS),
  value: z.number().int().nullable(),
  reason: z.string(),
  operatorEmail: z.string(),
  at: z.string(),
});
export type RuleOverride = z.infer<typeof RuleOverride>;

/** A profile with the overrides in force applied (a kitchen's overrides after its jurisdiction's), caps key by key. */
export function withOverrides(
  profile: Profile,
  overrides: readonly RuleOverride[],
  currency: string,
): Profile {
  if (!overrides.length) return profile;
  const caps = { ...profile.rules.caps };
  for (const o of overrides)
    if (o.key === 'grossPerYear')
      caps.grossPerYear =
        o.value === null
          ? null
          : { amountMinor: o.value, currency: profile.rules.caps.grossPerYear?.currency ?? currency };
    else caps[o.key] = o.value;
  return { ...profile, rules: { ...profile.rules, caps } };
}

export const KitchenRules = z.strictObject({
  profile: Profile,
  /** The operators' overrides of the profile's values for its place or for this kitchen, applied to `profile`. */
  overrides: z.array(RuleOverride),
  listing: KitchenListingState,
  place: z.strictObject({
    countryCode: z.string().nullable(),
    region: z.string().nullable(),
    county: z.string().nullable(),
  }),
  /** Meals and gross counted so far (null when the profile caps nothing). */
  counted: z
    .strictObject({
      today: z.number().int(),
      thisWeek: z.number().int(),
      thisYearGrossMinor: z.number().int(),
    })
    .nullable(),
});
export type KitchenRules = z.infer<typeof KitchenRules>;

/** 409 codes: an order would pass one of its kitchen's caps; its kitchen's place lets no home kitchen sell. */
export const MEAL_CAP_REACHED = 'MEAL_CAP_REACHED';
export const SELLING_NOT_ALLOWED = 'SELLING_NOT_ALLOWED';

/** The local day an order counts against, its week (from Monday) and its year, as dates (YYYY-MM-DD). */
export function capPeriods(day: string): { day: string; week: string; year: string } {
  const at = new Date(`${day}T00:00:00Z`);
  const sinceMonday = (at.getUTCDay() + 6) % 7;
  const monday = new Date(at.getTime() - sinceMonday * 86_400_000).toISOString().slice(0, 10);
  return { day, week: monday, year: `${day.slice(0, 4)}-01-01` };
}

/** The caps that apply in a deployment: a gross cap in another currency than the deployment's cannot be counted. */
export function capsInCurrency(caps: Caps, currency: string): Caps {
  return caps.grossPerYear && caps.grossPerYear.currency !== currency
    ? { ...caps, grossPerYear: null }
    : caps;
}

/** What a kitchen's menu page shows of its caps: whether today's meals are all sold. */
export const KitchenBooking = z.strictObject({
  /** Its rules cap its meals a day or a week (or its gross). */
  capped: z.boolean(),
  /** No meal is left today under its caps of a day or a week: 'Fully booked today'. */
  fullyBookedToday: z.boolean(),
  /** Meals left today under those caps (null: not capped). */
  mealsLeftToday: z.number().int().nullable(),
  /** Its permit number, where its rules ask for it on the menu page (null otherwise, or none added). */
  permitNumber: z.string().nullable(),
});
export type KitchenBooking = z.infer<typeof KitchenBooking>;

/** `GET /api/operator/rules`: each shipped profile's caps as its file says them, with the overrides in force. */
export const OperatorRules = z.strictObject({
  /** The deployment's currency: an override of the gross a year is in its minor units. */
  currency: z.string(),
  profiles: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      /** The caps of the profile's file, before any override. */
      caps: Caps,
      overrides: z.array(RuleOverride),
    }),
  ),
  /** Kitchens with overrides of their own, by name. */
  kitchens: z.array(z.strictObject({ uid: z.string(), name: z.string(), overrides: z.array(RuleOverride) })),
});
export type OperatorRules = z.infer<typeof OperatorRules>;
