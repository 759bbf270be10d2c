import { Skeleton, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import type { SessionUser } from '../../shared/auth.js';
import { ApiError } from '../lib/api-client.js';
import classes from './chat.module.css';
import { MessageForm } from './message-form.js';
import { MessageList } from './message-list.js';
import { useChatMessages } from './use-chat-messages.js';
import { useSendMessage } from './use-send-message.js';
import { LoadFailed } from '../lib/load-failed.js';
import { t } from '../i18n.js';

function notifySendFailed(error: unknown) {
  const rateLimited = error instanceof ApiError && error.status === 429;
  notifications.show({
    color: 'red',
    title: rateLimited ? t('Slow down') : t('Your message was not sent'),
    message: error instanceof Error ? t(error.message) : t('Please try again.'),
  });
}

/** The live message list and the form, for the signed-in user `me`. */
export function ChatRoom({ me }: { me: SessionUser }) {
  const chat = useChatMessages();
  const send = useSendMessage(chat.addSent);
  const { olderError } = chat;

  useEffect(() => {
    if (olderError)
      notifications.show({
        color: 'red',
        title: t('Could not load older messages'),
        message: t(olderError.message),
      });
  }, [olderError]);

  if (chat.live.isPending)
    return (
      <Stack className={classes.room} aria-busy="true" aria-label={t('Loading messages')}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} h={48} w={i % 2 ? '50%' : '65%'} radius="lg" />
        ))}
      </Stack>
    );

  if (chat.live.isError)
    return (
      <LoadFailed
        title={t('Could not load the chat')}
        error={chat.live.error}
        retry={() => void chat.live.refetch()}
      />
    );

  return (
    <div className={classes.room}>
      <MessageList
        messages={chat.messages}
        ownUid={me.uid}
        hasOlder={chat.hasOlder}
        loadingOlder={chat.loadingOlder}
        onLoadOlder={chat.loadOlder}
      />
      <MessageForm
        onSend={async (text) => {
          try {
            await send.mutateAsync(text);
          } catch (error) {
            notifySendFailed(error);
            throw error;
          }
        }}
      />
    </div>
  );
}
