import { Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { GoogleButton } from '../auth/google-button.js';
import { useSession } from '../auth/use-session.js';
import { PageLayout } from '../layout/page-layout.js';
import { AdminNav } from './admin-nav.js';
import { KitchenRegistration } from '../kitchen-registration/kitchen-registration.js';
import { LoadFailed } from '../lib/load-failed.js';
import { LoadingText } from './status-views.js';
import { t } from '../i18n.js';

const onSignInDone = (ok: boolean) => {
  if (!ok) notifications.show({ color: 'red', title: t('Sign-in failed'), message: t('Please try again.') });
};

/** Kitchen entry: a sign-in prompt, or (once signed in) the registration screen itself. */
export function AdminSignInPage() {
  const session = useSession();
  return (
    <PageLayout>
      {session.isPending ? (
        <LoadingText />
      ) : session.isError ? (
        <LoadFailed
          title={t('We could not check your sign-in')}
          error={session.error}
          retry={() => void session.refetch()}
        />
      ) : session.data.kitchen ? (
        <>
          <AdminNav />
          <KitchenRegistration user={session.data.kitchen} />
        </>
      ) : (
        <Stack align="flex-start" gap="md">
          <Title order={1}>{t('Please Register Yourself')}</Title>
          <Text c="dimmed">{t('Sign in with Google to register your kitchen and publish your menu.')}</Text>
          <GoogleButton role="kitchen" label={t('Register with google')} onDone={onSignInDone} />
        </Stack>
      )}
    </PageLayout>
  );
}
