import { Text } from '@mantine/core';
import { useState } from 'react';
import type { LatLon } from '../../shared/geo.js';
import { AddressField } from '../geocode/address-field.js';
import { useGeocodeDebounce } from '../geocode/use-address-suggestions.js';

/**
 * 'Pick an address': the nearest kitchens to a place picked from the address suggestions, for a visitor who would
 * rather not share the browser's location (or is looking for somewhere else: a new flat, a friend's). Shown only
 * when the server has a geocoder.
 */
export function AddressPicker({ onPick }: { onPick: (near: LatLon) => void }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  if (useGeocodeDebounce() === 0) return null;
  return (
    <div>
      <AddressField
        label="Or pick an address"
        description="Kitchens nearest to it come first"
        required={false}
        value={text}
        onChange={(value) => {
          setText(value);
          setProblem(undefined);
        }}
        onPick={(suggestion) => {
          if (suggestion.lat !== undefined && suggestion.lon !== undefined)
            onPick({ lat: suggestion.lat, lon: suggestion.lon });
          else setProblem('This address could not be placed on the map. Please pick another suggestion.');
        }}
      />
      {problem && (
        <Text size="sm" c="red.8" role="alert" mt={4}>
          {problem}
        </Text>
      )}
    </div>
  );
}
