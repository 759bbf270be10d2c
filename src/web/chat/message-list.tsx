import { Button, Center, Text } from '@mantine/core';
import { useLayoutEffect, useRef, useState } from 'react';
import type { ChatMessage } from '../../shared/chat.js';
import classes from './chat.module.css';
import { MessageItem } from './message-item.js';
import { t } from '../i18n.js';

/** Within this many pixels of the bottom counts as "at the bottom", following new messages. */
const BOTTOM_SLACK_PX = 48;

interface MessageListProps {
  messages: ChatMessage[];
  ownUid: string;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
}

/**
 * The scrolling list, oldest first. A new message scrolls into view unless the reader has scrolled up to read
 * (then a button offers to jump down); older messages added above keep the reader's place.
 */
export function MessageList({ messages, ownUid, hasOlder, loadingOlder, onLoadOlder }: MessageListProps) {
  const viewport = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const seen = useRef<{ newestId: string | undefined; height: number }>({ newestId: undefined, height: 0 });
  const [unseen, setUnseen] = useState(false);
  const newest = messages.at(-1);

  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const before = seen.current;
    if (newest?.id !== before.newestId) {
      if (atBottom.current || newest?.uid === ownUid) el.scrollTop = el.scrollHeight;
      else setUnseen(true);
    } else if (el.scrollHeight !== before.height && !atBottom.current) {
      // Older messages were added above: keep what the reader was looking at in place.
      el.scrollTop += el.scrollHeight - before.height;
    }
    seen.current = { newestId: newest?.id, height: el.scrollHeight };
  }, [messages, newest, ownUid]);

  const onScroll = () => {
    const el = viewport.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
    if (atBottom.current) setUnseen(false);
  };

  const jumpDown = () => {
    const el = viewport.current;
    if (el) el.scrollTop = el.scrollHeight;
    setUnseen(false);
  };

  return (
    <div
      ref={viewport}
      className={classes.viewport}
      onScroll={onScroll}
      // Focusable so that the keyboard can scroll it.
      tabIndex={0}
      role="region"
      aria-label={t('Chat messages')}
      data-testid="chat-viewport"
    >
      {hasOlder && (
        <Center mb="sm">
          <Button variant="subtle" size="xs" onClick={onLoadOlder} loading={loadingOlder}>
            {t('Load older messages')}
          </Button>
        </Center>
      )}
      {messages.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {t('No messages yet. Be the first to say something nice!')}
        </Text>
      ) : (
        <div role="log" aria-label={t('Messages')}>
          <ol className={classes.list}>
            {messages.map((message) => (
              <MessageItem key={message.id} message={message} own={message.uid === ownUid} />
            ))}
          </ol>
        </div>
      )}
      {unseen && (
        <div className={classes.newBelow}>
          <Button size="xs" radius="xl" onClick={jumpDown}>
            {t('New messages below')}
          </Button>
        </div>
      )}
    </div>
  );
}
