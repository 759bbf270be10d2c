import { Loader, type MantineSize } from '@mantine/core';

/**
 * A spinner that says what it waits for. Mantine's Loader is a plain span, on which an aria-label is not allowed
 * (axe: aria-prohibited-attr) and not read out; as a status it is both named and announced.
 */
export function Spinner({ label, size }: { label: string; size?: MantineSize }) {
  return <Loader role="status" aria-label={label} size={size} />;
}
