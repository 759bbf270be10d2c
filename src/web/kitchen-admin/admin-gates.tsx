import { accountLeaving } from '../account/leaving.js';
import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate } from '../router/router.js';
import type { SessionUser } from '../../shared/auth.js';
import type { Kitchen } from '../../shared/kitchens.js';
import { paths } from '../../shared/paths.js';
import { useSession } from '../auth/use-session.js';
import { useKitchen } from '../kitchens/use-kitchen.js';
import { LoadFailed } from '../lib/load-failed.js';
import { LoadingText } from './status-views.js';
import { useOwnKitchen } from '../kitchen-registration/use-own-kitchen.js';
import { t } from '../i18n.js';

/** Renders its children for a signed-in kitchen user; anyone else is sent to /AdminSignIn. */
export function RequireKitchenSession({ children }: { children: (user: SessionUser) => ReactNode }) {
  const session = useSession();
  if (session.isPending) return <LoadingText />;
  if (session.isError)
    return (
      <LoadFailed
        title={t('We could not check your sign-in')}
        error={session.error}
        retry={() => void session.refetch()}
      />
    );
  if (!session.data.kitchen)
    // Their account is being deleted: its page goes home itself.
    return accountLeaving.active ? null : <Navigate to={paths.adminSignIn.href()} replace />;
  return children(session.data.kitchen);
}

/** Renders its children with the owner's kitchen; an owner without one is sent to step 1 of /KitchenRegister. */
export function RequireOwnKitchen({
  user,
  children,
}: {
  user: SessionUser;
  children: (kitchen: Kitchen) => ReactNode;
}) {
  const kitchen = useOwnKitchen(user.uid);
  if (kitchen.isPending) return <LoadingText />;
  if (kitchen.isError)
    return (
      <LoadFailed
        title={t('We could not load your kitchen')}
        error={kitchen.error}
        retry={() => void kitchen.refetch()}
      />
    );
  if (!kitchen.data) return <Navigate to={paths.kitchenRegister.href()} replace />;
  return (
    <>
      <SuspendedAlert kitchen={kitchen.data} />
      {children(kitchen.data)}
    </>
  );
}

/**
 * Suspended by an operator: the cook still runs their dashboard, and is told why nobody orders, live (the public
 * kitchen's stream carries `suspended`, and an operator's action announces it).
 */
function SuspendedAlert({ kitchen }: { kitchen: Kitchen }) {
  const live = useKitchen(kitchen.uid).data;
  if (!(live ?? kitchen).suspended) return null;
  return (
    <Alert color="red" role="alert" title={t('Your kitchen is suspended')} mb="md">
      {t('An operator has suspended your kitchen: customers cannot see it or order from it right now.')}
    </Alert>
  );
}
