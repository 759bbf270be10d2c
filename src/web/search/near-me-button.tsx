import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { LatLon } from '../../shared/geo.js';
import { msg, t } from '../i18n.js';

/** Why the browser gave no position (GeolocationPositionError's codes), as said to the visitor. */
const REASONS: Record<number, string> = {
  1: msg('Could not use your location: location access was refused in the browser.'),
  2: msg('Could not use your location: the browser could not tell where you are.'),
  3: msg('Could not use your location: the browser took too long to find you.'),
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
    if (!('geolocation' in navigator))
      return setProblem(t('Could not use your location: this browser cannot share its location.'));
    setLocating(true);
    setProblem(undefined);
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating(false);
        onChange({ lat: coords.latitude, lon: coords.longitude });
      },
      (error) => {
        setLocating(false);
        const reason = REASONS[error.code];
        setProblem(
          reason ? t(reason) : t('Could not use your location: {reason}.', { reason: error.message }),
        );
      },
      { timeout: 15_000, maximumAge: 300_000 },
    );
  };
  return (
    <Group gap="xs">
      {near ? (
        <>
          <Text size="sm">{t('Showing the nearest kitchens first.')}</Text>
          <Button size="xs" variant="subtle" onClick={() => onChange(undefined)}>
            {t('Forget my location')}
          </Button>
        </>
      ) : (
        <Button size="xs" variant="light" loading={locating} onClick={locate}>
          {t('Use my location')}
        </Button>
      )}
      {problem && (
        <Text size="sm" c="red.8" role="alert">
          {problem}
        </Text>
      )}
    </Group>
  );
}
