import { Autocomplete, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { AddressSuggestion } from '../../shared/geocode.js';
import { ApiError } from '../lib/api-client.js';
import { ADDRESS_PLACEHOLDER, OsmAttribution } from './address-field-parts.js';
import { useAddressSuggestions, useGeocodeDebounce } from './use-address-suggestions.js';
import { Spinner } from '../lib/spinner.js';
import { t } from '../i18n.js';

/**
 * The delivery address: free text, with suggestions from our /api/geocode as the customer pauses typing.
 * When the geocoder is off or unreachable there are simply no suggestions; the typed text still counts.
 */
export function AddressField({
  value,
  onChange,
  onPick,
  error,
  label = t('Delivery address'),
  description = t('Pick a suggestion or type your full address'),
  required = true,
}: {
  value: string;
  onChange: (value: string) => void;
  /** A suggestion was picked (it carries the place's coordinates when the provider gave them). */
  onPick?: (suggestion: AddressSuggestion) => void;
  error?: string | undefined;
  label?: string;
  description?: string;
  required?: boolean;
}) {
  const debounceMs = useGeocodeDebounce();
  const [debounced] = useDebouncedValue(value.trim(), debounceMs || 300);
  const suggestions = useAddressSuggestions(debounced, debounceMs > 0);
  const options = suggestions.data?.map((s) => s.display_name) ?? [];
  return (
    <div>
      <Autocomplete
        label={label}
        placeholder={t(ADDRESS_PLACEHOLDER)}
        description={description}
        value={value}
        onChange={onChange}
        onOptionSubmit={(picked) => {
          const suggestion = suggestions.data?.find((s) => s.display_name === picked);
          if (suggestion) onPick?.(suggestion);
        }}
        data={options}
        // The provider matches loosely (typos, other word orders): show what it found, unfiltered.
        filter={({ options: all }) => all}
        error={error}
        required={required}
        autoComplete="street-address"
        rightSection={suggestions.isFetching ? <Spinner size="xs" label={t('Looking up addresses')} /> : null}
      />
      {suggestions.error instanceof ApiError && suggestions.error.status === 429 && (
        <Text size="xs" c="dimmed" mt={4} role="status">
          {t('Address suggestions are paused ({reason}) You can keep typing your address.', {
            reason: suggestions.error.message,
          })}
        </Text>
      )}
      <OsmAttribution />
    </div>
  );
}
