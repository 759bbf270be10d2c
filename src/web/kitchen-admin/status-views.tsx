import { Group, Loader, Text } from '@mantine/core';

/** The spec's 'Loading...' while a check is under way. */
export function LoadingText() {
  return (
    <Group gap="xs" role="status">
      <Loader size="sm" aria-hidden="true" />
      <Text>Loading...</Text>
    </Group>
  );
}
