import { Button, type MantineSpacing } from '@mantine/core';
import { t } from '../i18n.js';
import classes from './notice.module.css';

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
    <div
      role="alert"
      className={classes.failed}
      style={mb ? { marginBottom: `var(--mantine-spacing-${mb})` } : undefined}
    >
      <p className={classes.title}>{title}</p>
      <p className={classes.message}>{error.message}</p>
      <Button size="xs" variant="white" color="red" onClick={retry}>
        {t('Try again')}
      </Button>
    </div>
  );
}
