import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate } from '../router/router.js';
import { paths } from '../../shared/paths.js';
import { GoogleButton } from '../auth/google-button.js';
import { useSession } from '../auth/use-session.js';
import { PageLayout } from '../layout/page-layout.js';
import { Spinner } from '../lib/spinner.js';
import { t } from '../i18n.js';

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
              {customer ? t('You are signed in') : t('Please Sign In to check out')}
            </Title>
            {session.isPending ? (
              <Spinner label={t('Checking your sign-in')} />
            ) : customer ? (
              <>
                <Text ta="center">{t('Signed in as {name}', { name: customer.displayName })}</Text>
                <Button component={Link} to={paths.shoppingCart.href()} size="md">
                  {t('Go to your cart')}
                </Button>
              </>
            ) : (
              <>
                <Text c="dimmed" ta="center">
                  {t('Your cart is kept while you sign in.')}
                </Text>
                <GoogleButton
                  role="customer"
                  label={t('Sign in with Google')}
                  returnTo={paths.shoppingCart.href()}
                  onDone={(ok) => {
                    if (ok) void navigate(paths.shoppingCart.href());
                    else
                      notifications.show({
                        color: 'red',
                        title: t('Sign-in did not complete'),
                        message: t('Please try again.'),
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
