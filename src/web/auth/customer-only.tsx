import { Alert, Button, Center, Loader, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { SessionUser } from '../../shared/auth.js';
import { paths } from '../../shared/paths.js';
import { useSession } from './use-session.js';

/** Renders `children` for a signed-in customer; anyone else is sent to /CustomerSignIn. */
export function CustomerOnly({ children }: { children: (customer: SessionUser) => ReactNode }) {
  const session = useSession();
  if (session.isPending)
    return (
      <Center py="xl">
        <Loader aria-label="Checking your sign-in" />
      </Center>
    );
  if (session.isError)
    return (
      <Alert color="red" title="Could not check your sign-in" role="alert">
        <Text size="sm" mb="sm">
          {session.error.message}
        </Text>
        <Button size="xs" variant="white" color="red" onClick={() => void session.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  if (!session.data.customer) return <Navigate to={paths.customerSignIn.href()} replace />;
  return children(session.data.customer);
}
