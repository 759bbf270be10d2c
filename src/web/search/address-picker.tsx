import { Text } from '@mantine/core';
import { PlainTextInput } from '../lib/plain-text-input.js';
import { useEffect, useRef, useState } from 'react';
import type { LatLon } from '../../shared/geo.js';
import { ADDRESS_PLACEHOLDER, OsmAttribution } from '../geocode/address-field-parts.js';
import type { AddressField } from '../geocode/address-field.js';
import { useGeocodeDebounce } from '../geocode/use-address-suggestions.js';
import { loadLaterStyles } from '../load-later-styles.js';
import { msg, t } from '../i18n.js';

const LABEL = msg('Or pick an address');
const DESCRIPTION = msg('Kitchens nearest to it come first');

// The real field is a Mantine Autocomplete: its dropdown, positioning engine and focus handling are a fifth of the
// first view's JavaScript, for a field most visitors never touch. The page (and hydration) shows a plain input
// that looks the same; the Autocomplete replaces it when a pointer comes near or the field takes focus.
let loaded: typeof AddressField | undefined;
const loadAddressField = async () => {
  const styles = loadLaterStyles();
  const { AddressField } = await import('../geocode/address-field.js');
  await styles;
  return (loaded ??= AddressField);
};

/**
 * 'Pick an address': the nearest kitchens to a place picked from the address suggestions, for a visitor who would
 * rather not share the browser's location (or is looking for somewhere else: a new flat, a friend's). Shown only
 * when the server has a geocoder.
 */
export function AddressPicker({ onPick }: { onPick: (near: LatLon) => void }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const [Field, setField] = useState(() => loaded);
  const box = useRef<HTMLDivElement>(null);
  const refocus = useRef(false);
  // Text typed into the stand-in is kept; the caret moves to the real field, at the end of that text.
  useEffect(() => {
    if (!Field || !refocus.current) return;
    refocus.current = false;
    const input = box.current?.querySelector('input');
    input?.focus();
    input?.setSelectionRange(input.value.length, input.value.length);
  }, [Field]);
  const debounceMs = useGeocodeDebounce();
  if (debounceMs === 0) return null;

  const change = (value: string) => {
    setText(value);
    setProblem(undefined);
  };
  const upgrade = () => {
    if (Field) return;
    loadAddressField().then(
      (real) => {
        refocus.current = !!box.current?.contains(document.activeElement);
        setField(() => real);
      },
      // Offline: the stand-in stays (typing still works); the next focus tries again.
      () => undefined,
    );
  };
  return (
    <div ref={box} onPointerEnter={upgrade} onTouchStart={upgrade} onFocus={upgrade}>
      {Field ? (
        <Field
          label={t(LABEL)}
          description={t(DESCRIPTION)}
          required={false}
          value={text}
          onChange={change}
          onPick={(suggestion) => {
            if (suggestion.lat !== undefined && suggestion.lon !== undefined)
              onPick({ lat: suggestion.lat, lon: suggestion.lon });
            else
              setProblem(t('This address could not be placed on the map. Please pick another suggestion.'));
          }}
        />
      ) : (
        <div>
          {/* The Autocomplete's own attributes while closed, so the field is the same for assistive technology. */}
          <PlainTextInput
            label={t(LABEL)}
            description={t(DESCRIPTION)}
            placeholder={t(ADDRESS_PLACEHOLDER)}
            value={text}
            onChange={(event) => change(event.currentTarget.value)}
            autoComplete="street-address"
            role="combobox"
            aria-haspopup="listbox"
            aria-expanded={false}
          />
          <OsmAttribution />
        </div>
      )}
      {problem && (
        <Text size="sm" c="red.8" role="alert" mt={4}>
          {problem}
        </Text>
      )}
    </div>
  );
}
