import { Center } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate } from '../router/router.js';
import type { SessionUser } from '../../shared/auth.js';
import { paths } from '../../shared/paths.js';
import { useSession } from './use-session.js';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { t } from '../i18n.js';
import { accountLeaving } from '../account/leaving.js';

/** Renders `children` for a signed-in customer; anyone else is sent to /CustomerSignIn. */
export function CustomerOnly({ children }: { children: (customer: SessionUser) => ReactNode }) {
  const session = useSession();
  if (session.isPending)
    return (
      <Center py="xl">
        <Spinner label={t('Checking your sign-in')} />
      </Center>
    );
  if (session.isError)
    return (
      <LoadFailed
        title={t('Could not check your sign-in')}
        error={session.error}
        retry={() => void session.refetch()}
      />
    );
  if (!session.data.customer)
    // Their account is being deleted: its page goes home itself.
    return accountLeaving.active ? null : <Navigate to={paths.customerSignIn.href()} replace />;
  return children(session.data.customer);
}
