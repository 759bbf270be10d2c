import { Center, Container, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { paths } from '../../shared/paths.js';
import { GoogleButton } from '../auth/google-button.js';
import { useSignOut } from '../auth/sign-in.js';
import { useSession } from '../auth/use-session.js';
import { ChatHeader } from './chat-header.js';
import { ChatRoom } from './chat-room.js';
import classes from './chat.module.css';
import { LoadFailed } from '../lib/load-failed.js';
import { Spinner } from '../lib/spinner.js';
import { t } from '../i18n.js';

/** /Chatroom: the chat for whoever is signed in (as a customer, else as a kitchen owner). */
export function ChatPage() {
  const session = useSession();
  const customer = session.data?.customer ?? null;
  const me = customer ?? session.data?.kitchen ?? null;
  const signOut = useSignOut(customer ? 'customer' : 'kitchen');

  const onSignOut = () =>
    void signOut().catch((error: unknown) =>
      notifications.show({
        color: 'red',
        title: t('Could not sign out'),
        message: error instanceof Error ? t(error.message) : t('Please try again.'),
      }),
    );

  return (
    <div className={classes.page}>
      <ChatHeader signedInAs={me?.displayName} onSignOut={me ? onSignOut : undefined} />
      <Container size="md" component="main" className={classes.main} py="md">
        <Title order={1} size="h2" mb="sm">
          {t('Chat room')}
        </Title>
        {session.isPending ? (
          <Center py="xl">
            <Spinner label={t('Checking who is signed in')} />
          </Center>
        ) : session.isError ? (
          <LoadFailed
            title={t('Could not check who is signed in')}
            error={session.error}
            retry={() => void session.refetch()}
          />
        ) : me ? (
          <ChatRoom key={me.uid} me={me} />
        ) : (
          <Stack align="flex-start" gap="md">
            <Text>
              {t(
                'The chat room is open to everyone who is signed in, customers and home cooks alike. Sign in to read the conversation and join in.',
              )}
            </Text>
            <GoogleButton
              role="customer"
              label={t('Sign in with Google')}
              returnTo={paths.chatroom.href()}
              onDone={(ok) => {
                if (!ok)
                  notifications.show({
                    color: 'red',
                    title: t('Sign-in failed'),
                    message: t('Please try again.'),
                  });
              }}
            />
          </Stack>
        )}
      </Container>
    </div>
  );
}
