import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { LatLon } from '../../shared/geo.js';

const REASONS: Record<number, string> = {
  1: 'location access was refused in the browser',
  2: 'the browser could not tell where you are',
  3: 'the browser took too long to find you',
};

/**
 * 'Use my location': asks the browser for the position only on this click (never on page load), and says why
 * when it cannot. A set location can be cleared.
 */
export function NearMeButton({
  near,
  onChange,
}: {
  near: LatLon | undefined;
  onChange: (near?: LatLon) => void;
}) {
  const [locating, setLocating] = useState(false);
  const [problem, setProblem] = useState<string>();
  const locate = () => {
    if (!('geolocation' in navigator)) return setProblem('this browser cannot share its location');
    setLocating(true);
    setProblem(undefined);
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating(false);
        onChange({ lat: coords.latitude, lon: coords.longitude });
      },
      (error) => {
        setLocating(false);
        setProblem(REASONS[error.code] ?? error.message);
      },
      { timeout: 15_000, maximumAge: 300_000 },
    );
  };
  return (
    <Group gap="xs">
      {near ? (
        <>
          <Text size="sm">Showing the nearest kitchens first.</Text>
          <Button size="xs" variant="subtle" onClick={() => onChange(undefined)}>
            Forget my location
          </Button>
        </>
      ) : (
        <Button size="xs" variant="light" loading={locating} onClick={locate}>
          Use my location
        </Button>
      )}
      {problem && (
        <Text size="sm" c="red.8" role="alert">
          Could not use your location: {problem}.
        </Text>
      )}
    </Group>
  );
}
