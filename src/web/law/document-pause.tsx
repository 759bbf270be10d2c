import { Alert } from '@mantine/core';
import type { DocumentKind, DocumentPause } from '../../shared/kitchen-documents.js';
import { msg, t, translator } from '../i18n.js';

const EXPIRED: Record<DocumentKind, string> = {
  permit: msg('Paused: your permit expired on {date}'),
  'food-safety-certificate': msg('Paused: your food safety certificate expired on {date}'),
  'food-handler-card': msg('Paused: your food handler card expired on {date}'),
};
const MISSING: Record<DocumentKind, string> = {
  permit: msg('Paused: add your permit number to take orders'),
  'food-safety-certificate': msg('Paused: add your food safety certificate to take orders'),
  'food-handler-card': msg('Paused: add your food handler card to take orders'),
};

/** What the cook reads while their kitchen takes no orders for a missing or expired document. */
export function pauseText(pause: DocumentPause): string {
  const date = (day: string) => translator().date(new Date(`${day}T12:00:00Z`), 'date');
  if (pause.holder !== undefined)
    return pause.expiredOn === null || pause.dueOn === undefined || pause.expiredOn < pause.dueOn
      ? t('Paused: {name}’s food handler card was due on {date} and is not added', {
          name: pause.holder,
          date: date(pause.dueOn ?? ''),
        })
      : t('Paused: {name}’s food handler card expired on {date}', {
          name: pause.holder,
          date: date(pause.expiredOn),
        });
  return pause.expiredOn === null
    ? t(MISSING[pause.kind])
    : t(EXPIRED[pause.kind], {
        date: translator().date(new Date(`${pause.expiredOn}T12:00:00Z`), 'date'),
      });
}

export function DocumentPauseAlert({ pause }: { pause: DocumentPause | null | undefined }) {
  if (!pause) return null;
  return (
    <Alert color="red" role="status" title={pauseText(pause)}>
      {t('Your kitchen takes no orders until a valid one is added below, on Rules for your kitchen.')}
    </Alert>
  );
}
