import { Anchor, Text } from '@mantine/core';
import { OSM_ATTRIBUTION } from '../../shared/geocode-pace.js';
import { msg, t } from '../i18n.js';

/** What an empty address field shows, in the real field and in its stand-in before that one has loaded. */
export const ADDRESS_PLACEHOLDER = msg('Street and number, city');

/** '© OpenStreetMap contributors' under an address field whose suggestions come from OpenStreetMap's data. */
export function OsmAttribution() {
  return (
    <Text size="xs" c="dimmed" mt={4}>
      <Anchor
        href="https://www.openstreetmap.org/copyright"
        target="_blank"
        rel="noreferrer"
        c="dimmed"
        inherit
      >
        {t(OSM_ATTRIBUTION)}
      </Anchor>
    </Text>
  );
}
