import { z } from 'zod';
import { t } from './i18n/translator.js';
import {
  ALLERGEN_ANSWERS,
  ALLERGENS,
  allergenName,
  type Allergen,
  type AllergenAnswer,
  type AllergenDeclaration,
} from './allergen-set.js';
import { translator } from './i18n/translator.js';

/** A label's use-by date is at most this many days after the day it was made. */
export const MAX_KEEPS_DAYS = 30;

const answer = (allergen: Allergen) =>
  z.enum(ALLERGEN_ANSWERS, {
    error: () =>
      t('Answer whether this dish contains {allergen}: contains, may contain or no', {
        allergen: allergenName(allergen, translator().locale),
      }),
  });

/**
 * The cook's answer to 'Does this dish contain … ?' for every allergen of the set: an unanswered one is refused,
 * naming it (`allergenAnswers.sesame`). Allergens are declared, never guessed: no answer defaults to 'no'.
 */
export const AllergenAnswers = z.object(
  Object.fromEntries(ALLERGENS.map((a) => [a, answer(a)])) as Record<Allergen, ReturnType<typeof answer>>,
  { error: () => t('Allergen answers must be an object with an answer for each allergen') },
);
export type AllergenAnswers = z.infer<typeof AllergenAnswers>;

/** Answers of 'no' for every allergen of the set but those given: a dish declared to hold none of the others. */
export function answersWith(some: Partial<AllergenAnswers> = {}): AllergenAnswers {
  return { ...(Object.fromEntries(ALLERGENS.map((a) => [a, 'no'])) as AllergenAnswers), ...some };
}

/** The declaration the answers make: what the dish contains, and what it may contain. */
export function declarationOf(answers: AllergenAnswers): { contains: Allergen[]; mayContain: Allergen[] } {
  return {
    contains: ALLERGENS.filter((a) => answers[a] === 'contains'),
    mayContain: ALLERGENS.filter((a) => answers[a] === 'may contain'),
  };
}

/** The answers a declared dish gave (for editing it). */
export function answersOf(declaration: AllergenDeclaration): AllergenAnswers {
  return Object.fromEntries(
    ALLERGENS.map((a): [Allergen, AllergenAnswer] => [
      a,
      declaration.contains.includes(a)
        ? 'contains'
        : declaration.mayContain.includes(a)
          ? 'may contain'
          : 'no',
    ]),
  ) as AllergenAnswers;
}

const profileAllergens = z
  .array(
    z.enum(ALLERGENS, {
      error: () => t('Unknown allergen; choose from: {allergens}', { allergens: ALLERGENS.join(', ') }),
    }),
    {
      error: () => t('Allergens must be a list'),
    },
  )
  .max(ALLERGENS.length)
  .transform((picked) => ALLERGENS.filter((a) => picked.includes(a)));

/** 'Your allergies': the allergens to avoid, and whether 'may contain' matters. */
export const AllergyProfileInput = z.object({
  allergens: profileAllergens,
  mayContainMatters: z.boolean({ error: () => t('May contain matters must be true or false') }),
});
export type AllergyProfileInput = z.infer<typeof AllergyProfileInput>;

export const AllergyProfile = z.object({
  allergens: z.array(z.string()) as z.ZodType<Allergen[]>,
  mayContainMatters: z.boolean(),
  /** When it was last saved; null: never. */
  updatedAt: z.string().nullable(),
});
export type AllergyProfile = z.infer<typeof AllergyProfile>;

/** The acknowledgement an order carries: the allergens the customer said they understand it contains. */
export const AllergenAcknowledgement = profileAllergens;

/** The refusal code of an order holding a dish that conflicts with the customer's allergies, unacknowledged. */
export const ALLERGENS_NOT_ACKNOWLEDGED = 'ALLERGENS_NOT_ACKNOWLEDGED';
