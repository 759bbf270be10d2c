import { Alert, Button, Text, type MantineSpacing } from '@mantine/core';
import { t } from '../i18n.js';

/** A load that failed: says so, with the reason, and offers to try again. */
export function LoadFailed({
  title,
  error,
  retry,
  mb,
}: {
  title: string;
  error: Error;
  retry: () => void;
  mb?: MantineSpacing;
}) {
  return (
    <Alert color="red" role="alert" title={title} mb={mb}>
      <Text size="sm" mb="sm">
        {error.message}
      </Text>
      <Button size="xs" variant="white" color="red" onClick={retry}>
        {t('Try again')}
      </Button>
    </Alert>
  );
}
