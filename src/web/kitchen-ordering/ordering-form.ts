import { decimalAmount, minorDigits, parsePriceToCents } from '../../shared/money.js';
import {
  MAX_DAYS_AHEAD,
  OrderingSettingsInput,
  SLOT_LENGTHS,
  type OrderingSettings,
} from '../../shared/ordering.js';
import { t, translator } from '../i18n.js';

/** The form's values: selects and text fields hold text, the minimum order is in dollars. */
export interface OrderingFormValues {
  offersDelivery: boolean;
  offersPickup: boolean;
  pickupAddress: string;
  pickupInstructions: string;
  takesAsap: boolean;
  /** 'Orders for later': slots on. */
  forLater: boolean;
  slotMinutes: string;
  priorNoticeMinutes: string;
  daysAhead: string;
  /** 'HH:MM', or '' for none. */
  sameDayCutoff: string;
  /** A whole number, or '' for no cap. */
  ordersPerSlot: string | number;
  /** Dollars, as typed: '15', '15.50'. */
  minimumOrder: string;
}

/** '30 minutes', in the page's language. */
export const minutesLabel = (minutes: string | number) =>
  t('{minutes, plural, one {# minute} other {# minutes}}', { minutes: Number(minutes) });
/** '3 days', in the page's language. */
export const daysLabel = (days: string | number) =>
  t('{days, plural, one {# day} other {# days}}', { days: Number(days) });

/** The options are made where they are shown: their labels are in the page's language. */
export const slotLengthOptions = () =>
  SLOT_LENGTHS.map((m) => ({ value: String(m), label: minutesLabel(m) }));

export const priorNoticeOptions = () => [
  { value: '0', label: t('None') },
  { value: '30', label: minutesLabel(30) },
  ...[1, 2, 3, 4, 6, 12, 24, 48].map((hours) => ({
    value: String(hours * 60),
    label: t('{hours, plural, one {# hour} other {# hours}}', { hours }),
  })),
];

export const daysAheadOptions = () =>
  Array.from({ length: MAX_DAYS_AHEAD + 1 }, (_, d) => ({
    value: String(d),
    label: d === 0 ? t('Today only') : daysLabel(d),
  }));

/** The slot length a cook who turns 'Orders for later' on starts from. */
const FIRST_SLOT_MINUTES = 30;

export function formValuesOf(settings: OrderingSettings): OrderingFormValues {
  return {
    offersDelivery: settings.offersDelivery,
    offersPickup: settings.offersPickup,
    pickupAddress: settings.pickupAddress,
    pickupInstructions: settings.pickupInstructions,
    takesAsap: settings.takesAsap,
    forLater: settings.slotMinutes !== null,
    slotMinutes: String(settings.slotMinutes ?? FIRST_SLOT_MINUTES),
    priorNoticeMinutes: String(settings.priorNoticeMinutes),
    daysAhead: String(settings.daysAhead),
    sameDayCutoff: settings.sameDayCutoff ?? '',
    ordersPerSlot: settings.ordersPerSlot ?? '',
    // The currency's units as the cook types them: '15.00', or '500' yen.
    minimumOrder: decimalAmount(settings.minimumOrderCents),
  };
}

/** A number typed or chosen, or NaN (the schema then names the field). */
const numberOf = (value: string | number) => (typeof value === 'number' ? value : Number(value));

/**
 * What the form sends: with 'Orders for later' off, no slot length (and no cap or cut-off: they are the slots');
 * a `minimumOrderCents` of NaN when the minimum order is not an amount (the schema refuses it by name).
 */
export function inputOf(values: OrderingFormValues): OrderingSettingsInput {
  const cap = values.ordersPerSlot;
  const minimum = values.minimumOrder.trim() === '' ? 0 : parsePriceToCents(values.minimumOrder);
  return {
    offersDelivery: values.offersDelivery,
    offersPickup: values.offersPickup,
    pickupAddress: values.pickupAddress,
    pickupInstructions: values.pickupInstructions,
    takesAsap: values.takesAsap,
    slotMinutes: values.forLater ? numberOf(values.slotMinutes) : null,
    priorNoticeMinutes: numberOf(values.priorNoticeMinutes),
    daysAhead: numberOf(values.daysAhead),
    sameDayCutoff: values.forLater && values.sameDayCutoff !== '' ? values.sameDayCutoff : null,
    ordersPerSlot: values.forLater && cap !== '' ? numberOf(cap) : null,
    minimumOrderCents: minimum ?? Number.NaN,
  };
}

const FORM_FIELDS: Record<keyof OrderingFormValues, true> = {
  offersDelivery: true,
  offersPickup: true,
  pickupAddress: true,
  pickupInstructions: true,
  takesAsap: true,
  forLater: true,
  slotMinutes: true,
  priorNoticeMinutes: true,
  daysAhead: true,
  sameDayCutoff: true,
  ordersPerSlot: true,
  minimumOrder: true,
};

/** The form's field of a field the server (or the shared schema) names. */
export const formFieldOf = (field: string): keyof OrderingFormValues | undefined => {
  const name = field.split('.')[0] ?? '';
  if (name === 'minimumOrderCents') return 'minimumOrder';
  return name in FORM_FIELDS ? (name as keyof OrderingFormValues) : undefined;
};

/**
 * The form's problems, checked with the schema the server uses: one message per field (the first), on the form's
 * own field names.
 */
export function validateOrdering(
  values: OrderingFormValues,
): Partial<Record<keyof OrderingFormValues, string>> {
  const errors: Partial<Record<keyof OrderingFormValues, string>> = {};
  if (values.minimumOrder.trim() !== '' && parsePriceToCents(values.minimumOrder) === null)
    errors.minimumOrder =
      minorDigits(translator().currency) === 0
        ? t('Minimum order must be a whole amount, such as 1500')
        : t('Minimum order must be an amount, such as 15 or 15.50');
  const result = OrderingSettingsInput.safeParse(inputOf(values));
  if (!result.success)
    for (const issue of result.error.issues) {
      const field = formFieldOf(issue.path.map(String).join('.'));
      if (field && errors[field] === undefined) errors[field] = t(issue.message);
    }
  return errors;
}

/** A select's options, with the current value among them should it be one they do not list (set some other way). */
export function withCurrent(
  options: readonly { value: string; label: string }[],
  value: string,
  label: (value: string) => string,
) {
  return options.some((o) => o.value === value) ? options : [...options, { value, label: label(value) }];
}
