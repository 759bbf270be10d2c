import { NumberInput } from '@mantine/core';
import { DEFAULT_DELIVERY_RADIUS_KM, MAX_DELIVERY_RADIUS_KM } from '../../shared/kitchens.js';
import { t } from '../i18n.js';

/** How far the kitchen delivers, in whole km ('Delivers within 5 km' on its card). */
export function DeliveryRadiusField({
  value,
  onChange,
  error,
}: {
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  error?: React.ReactNode;
}) {
  // translators: the unit after the distance typed ('5 km')
  const unit = t('km');
  return (
    <NumberInput
      label={t('Delivers within (km)')}
      description={t("Customers further away see 'Outside delivery area' and cannot order")}
      min={1}
      max={MAX_DELIVERY_RADIUS_KM}
      allowDecimal={false}
      suffix={` ${unit}`}
      value={value ?? DEFAULT_DELIVERY_RADIUS_KM}
      onChange={(next) => onChange(typeof next === 'number' ? next : undefined)}
      error={error}
    />
  );
}
