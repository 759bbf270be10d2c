import { Button } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import type { ReportTargetKind } from '../../shared/moderation.js';
import { useSession } from '../auth/use-session.js';
import { loadLaterStyles } from '../load-later-styles.js';
import { t } from '../i18n.js';

// The dialog (a Modal with its focus trap and scroll lock, a Textarea, toasts) loads on the first press: a
// kitchen's page shows this button to every signed-in visitor, few of whom report anything.
const ReportDialog = lazy(async () => {
  const styles = loadLaterStyles();
  const { ReportDialog } = await import('./report-dialog.js');
  await styles;
  return { default: ReportDialog };
});

/**
 * 'Report' and its dialog asking why: for anyone signed in as a customer or a kitchen owner (nothing otherwise), but
 * not for one's own kitchen (ids are unique across kinds). The operators see the report on /Operator at once.
 */
export function ReportButton({ targetKind, targetId }: { targetKind: ReportTargetKind; targetId: string }) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  // Once opened, the dialog stays mounted (closed), so it keeps what was typed and its closing transition.
  const [wanted, setWanted] = useState(false);
  if ((!session.data?.customer && !session.data?.kitchen) || session.data.kitchen?.uid === targetId)
    return null;
  return (
    <>
      <Button
        variant="subtle"
        color="gray"
        size="compact-xs"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        {
          // translators: a button: report this to the operators
          t('Report')
        }
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <ReportDialog
            targetKind={targetKind}
            targetId={targetId}
            opened={open}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
