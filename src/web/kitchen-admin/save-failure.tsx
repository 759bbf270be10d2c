import { Alert, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../lib/api-client.js';
import { t } from '../i18n.js';

/** What went wrong with the last save: undefined when nothing did; `detail` when no field is to blame. */
export interface SaveFailure {
  detail?: string;
}

/** The part of a Mantine form this needs; `never` lets a form typed by its own field names fit. */
interface FieldErrorTarget {
  getValues(): object;
  setFieldError(path: never, error: ReactNode): void;
}

/**
 * Tracks a form's failed saves the way the spec shows them ('Please fill all fields') while also saying what is
 * wrong: a field the server names gets its message on that field; any other failure is spelled out and toasted.
 */
export function useSaveFailure(form: FieldErrorTarget) {
  const [failure, setFailure] = useState<SaveFailure | undefined>(undefined);
  return {
    failure,
    clear: () => setFailure(undefined),
    /** The browser's own check (the shared schema) refused the values; the fields already show why. */
    invalid: () => setFailure({}),
    /** The server refused or could not be reached. */
    failed: (error: unknown) => {
      const message = error instanceof Error ? error.message : t('The save failed');
      const field = error instanceof ApiError ? error.field : undefined;
      if (field && field in form.getValues()) {
        form.setFieldError(field as never, message);
        setFailure({});
        return;
      }
      setFailure({ detail: message });
      notifications.show({ color: 'red', title: t('Could not save'), message });
    },
  };
}

export function SaveFailureAlert({ failure }: { failure: SaveFailure | undefined }) {
  if (!failure) return null;
  return (
    <Alert color="red" role="alert" title={t('Please fill all fields')}>
      {failure.detail ? <Text size="sm">{failure.detail}</Text> : null}
    </Alert>
  );
}
