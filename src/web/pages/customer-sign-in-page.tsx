import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../shared/paths.js';
import { GoogleButton } from '../auth/google-button.js';
import { useSession } from '../auth/use-session.js';
import { PageLayout } from '../layout/page-layout.js';
import { Spinner } from '../lib/spinner.js';

/**
 * /CustomerSignIn: sign in with Google (popup), then on to the cart. Signed in already (perhaps in another tab,
 * which this tab hears about), it says so and offers the cart instead of moving on by itself.
 */
export function CustomerSignInPage() {
  const session = useSession();
  const navigate = useNavigate();
  const customer = session.data?.customer;
  return (
    <PageLayout>
      <Center>
        <Paper withBorder radius="md" p="xl" maw={460} w="100%">
          <Stack align="center" gap="lg">
            <Title order={1} size="h2" ta="center">
              {customer ? 'You are signed in' : 'Please Sign In to check out'}
            </Title>
            {session.isPending ? (
              <Spinner label="Checking your sign-in" />
            ) : customer ? (
              <>
                <Text ta="center">Signed in as {customer.displayName}</Text>
                <Button component={Link} to={paths.shoppingCart.href()} size="md">
                  Go to your cart
                </Button>
              </>
            ) : (
              <>
                <Text c="dimmed" ta="center">
                  Your cart is kept while you sign in.
                </Text>
                <GoogleButton
                  role="customer"
                  label="Sign in with Google"
                  returnTo={paths.shoppingCart.href()}
                  onDone={(ok) => {
                    if (ok) void navigate(paths.shoppingCart.href());
                    else
                      notifications.show({
                        color: 'red',
                        title: 'Sign-in did not complete',
                        message: 'Please try again.',
                      });
                  }}
                />
              </>
            )}
          </Stack>
        </Paper>
      </Center>
    </PageLayout>
  );
}
