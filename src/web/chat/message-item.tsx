import { Group, Image, Text } from '@mantine/core';
import type { ChatMessage } from '../../shared/chat.js';
import { DEFAULT_AVATAR } from '../lib/images.js';
import { ReportButton } from '../moderation/report-button.js';
import classes from './chat.module.css';
import { t, translator } from '../i18n.js';

function formatTime(iso: string): string {
  const date = new Date(iso);
  const today = new Date().toDateString() === date.toDateString();
  return translator()
    .dateFormat(today ? { hour: '2-digit', minute: '2-digit' } : { dateStyle: 'medium', timeStyle: 'short' })
    .format(date);
}

/**
 * One message: the sender's picture (a default one when missing or broken), name, time and the text; others'
 * messages can be reported.
 */
export function MessageItem({ message, own }: { message: ChatMessage; own: boolean }) {
  return (
    <li className={classes.message} data-own={own} data-testid="chat-message">
      <Image
        className={classes.avatar}
        src={message.photoURL ?? DEFAULT_AVATAR}
        fallbackSrc={DEFAULT_AVATAR}
        referrerPolicy="no-referrer"
        alt={t('Picture of {name}', { name: message.displayName })}
        w={36}
        h={36}
        radius="xl"
      />
      <div className={classes.bubble}>
        <Group gap="xs" justify={own ? 'flex-end' : 'flex-start'} wrap="nowrap">
          <Text size="sm" fw={700} lineClamp={1}>
            {own ? t('{name} (you)', { name: message.displayName }) : message.displayName}
          </Text>
          <Text component="time" dateTime={message.createdAt} size="xs" c="dimmed" style={{ flex: 'none' }}>
            {formatTime(message.createdAt)}
          </Text>
        </Group>
        {/* Plain text: React escapes it, so markup in a message is shown, never run. */}
        <Text className={classes.text}>{message.text}</Text>
        {!own && (
          <Group justify="flex-end" mt={2}>
            <ReportButton targetKind="chat_message" targetId={message.id} />
          </Group>
        )}
      </div>
    </li>
  );
}
