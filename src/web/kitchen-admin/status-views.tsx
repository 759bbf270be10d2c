import { Group, Loader, Text } from '@mantine/core';
import { t } from '../i18n.js';

/** The spec's 'Loading...' while a check is under way. */
export function LoadingText() {
  return (
    <Group gap="xs" role="status">
      <Loader size="sm" aria-hidden="true" />
      <Text>{t('Loading...')}</Text>
    </Group>
  );
}
