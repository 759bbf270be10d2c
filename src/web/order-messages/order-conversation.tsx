import { Button, Group, Paper, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  closedText,
  OrderMessageInput,
  type OrderMessage,
  type OrderMessageAuthor,
} from '../../shared/order-messages.js';
import { useMinuteTick } from '../availability/use-availability.js';
import { LoadFailed } from '../lib/load-failed.js';
import classes from './order-messages.module.css';
import { useOrderConversation, useSendOrderMessage } from './use-order-conversation.js';
import { t, translator } from '../i18n.js';

function formatTime(iso: string): string {
  const date = new Date(iso);
  const today = new Date().toDateString() === date.toDateString();
  return translator()
    .dateFormat(today ? { hour: 'numeric', minute: '2-digit' } : { dateStyle: 'medium', timeStyle: 'short' })
    .format(date);
}

/** Who wrote a message, as the reader on side `role` says it. */
const authorName = (from: OrderMessageAuthor, role: OrderMessageAuthor) =>
  from === role ? t('You') : from === 'kitchen' ? t('Kitchen') : t('Customer');

function MessageItem({ message, role }: { message: OrderMessage; role: OrderMessageAuthor }) {
  const own = message.from === role;
  return (
    <li className={classes.message} data-own={own}>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="sm" fw={700}>
          {authorName(message.from, role)}
        </Text>
        <Text component="time" dateTime={message.createdAt} size="xs" c="dimmed" style={{ flex: 'none' }}>
          {formatTime(message.createdAt)}
        </Text>
      </Group>
      {/* Plain text: React escapes it, so markup in a message is shown, never run. */}
      <Text className={classes.text}>{message.text}</Text>
    </li>
  );
}

/** The messages, oldest first, scrolled to the newest whenever one arrives. */
function MessageList({ messages, role }: { messages: OrderMessage[]; role: OrderMessageAuthor }) {
  const viewport = useRef<HTMLDivElement>(null);
  const newest = messages.at(-1)?.id;
  useLayoutEffect(() => {
    const el = viewport.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [newest]);
  if (messages.length === 0)
    return (
      <Text c="dimmed" size="sm">
        {role === 'customer'
          ? t('No messages yet. Ask the kitchen anything about this order here.')
          : t('No messages yet. Tell the customer anything about this order here.')}
      </Text>
    );
  return (
    // Focusable so that the keyboard can scroll it.
    <div
      ref={viewport}
      className={classes.viewport}
      tabIndex={0}
      role="log"
      aria-label={t('Messages of this order')}
    >
      <ol className={classes.list}>
        {messages.map((message) => (
          <MessageItem key={message.id} message={message} role={role} />
        ))}
      </ol>
    </div>
  );
}

/**
 * The textarea and Send (Ctrl+Enter too). The text stays until the server has the message, so a failed send
 * keeps what was typed, and the server's reason shows under it.
 */
function MessageForm({ orderId, role }: { orderId: string; role: OrderMessageAuthor }) {
  const send = useSendOrderMessage(orderId, role);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const blank = text.trim() === '';

  async function submit(event?: FormEvent<HTMLFormElement>) {
    event?.preventDefault();
    if (blank || send.isPending) return;
    const parsed = OrderMessageInput.safeParse({ text, as: role });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]?.message;
      setError(issue ? t(issue) : t('This message cannot be sent'));
      return;
    }
    try {
      await send.mutateAsync(parsed.data.text);
      setText('');
    } catch (failed) {
      setError(failed instanceof Error ? failed.message : t('Your message was not sent. Please try again.'));
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="xs">
        <Textarea
          label={t('Message')}
          description={t('Ctrl+Enter sends')}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setError(undefined);
          }}
          onKeyDown={onKeyDown}
          error={error}
          autosize
          minRows={2}
          maxRows={6}
        />
        <Group justify="flex-end">
          <Button type="submit" disabled={blank} loading={send.isPending}>
            {t('Send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * An order's conversation between its customer and its kitchen, live: the messages (who wrote: 'You' or the other
 * side; when), and a form to write while the order is in progress and a week after it ended. `heading`: false
 * where the place it is shown in already says 'Messages' (a dialog's title).
 */
export function OrderConversation({
  orderId,
  role,
  heading = true,
}: {
  orderId: string;
  role: OrderMessageAuthor;
  heading?: boolean;
}) {
  const conversation = useOrderConversation(orderId);
  const now = useMinuteTick(true);
  const titleId = useId();

  let body;
  if (conversation.isPending)
    body = (
      <Stack gap="xs" aria-busy="true" aria-label={t('Loading messages')}>
        <Skeleton h={40} w="60%" radius="lg" />
        <Skeleton h={40} w="45%" radius="lg" />
      </Stack>
    );
  else if (conversation.isError)
    body = (
      <LoadFailed
        title={t('Could not load the messages')}
        error={conversation.error}
        retry={() => void conversation.refetch()}
      />
    );
  else {
    const closed = closedText(conversation.data, now);
    body = (
      <Stack gap="sm">
        <MessageList messages={conversation.data.messages} role={role} />
        {closed === undefined ? (
          <MessageForm orderId={orderId} role={role} />
        ) : (
          <Text c="dimmed" role="status">
            {t(closed)}
          </Text>
        )}
      </Stack>
    );
  }

  return (
    <Paper
      component="section"
      withBorder={heading}
      radius="md"
      p={heading ? 'lg' : 0}
      maw={560}
      {...(heading ? { 'aria-labelledby': titleId } : { 'aria-label': t('Messages') })}
    >
      {heading ? (
        <Title order={2} size="h4" mb="sm" id={titleId}>
          {t('Messages')}
        </Title>
      ) : null}
      {body}
    </Paper>
  );
}
