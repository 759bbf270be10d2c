import { Alert, Button, Group, Loader, Text } from '@mantine/core';

/** The spec's 'Loading...' while a check is under way. */
export function LoadingText() {
  return (
    <Group gap="xs" role="status">
      <Loader size="sm" aria-hidden="true" />
      <Text>Loading...</Text>
    </Group>
  );
}

/** A load that failed: says so, with the reason, and offers to try again. */
export function LoadFailed({ title, error, retry }: { title: string; error: Error; retry: () => void }) {
  return (
    <Alert color="red" role="alert" title={title}>
      <Text size="sm" mb="sm">
        {error.message}
      </Text>
      <Button size="xs" variant="white" color="red" onClick={retry}>
        Try again
      </Button>
    </Alert>
  );
}
