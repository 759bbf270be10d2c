import { Button, Group, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ChatMessageInput } from '../../shared/chat.js';
import { t } from '../i18n.js';

/**
 * The input and Send button. Send is disabled while the text is blank; Enter sends. The text is cleared only
 * once the server has the message, so a failed send keeps what was typed.
 */
export function MessageForm({ onSend }: { onSend: (text: string) => Promise<void> }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const blank = text.trim() === '';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blank || sending) return;
    const parsed = ChatMessageInput.safeParse({ text });
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]?.message ?? 'This message cannot be sent'));
      return;
    }
    setSending(true);
    try {
      await onSend(parsed.data.text);
      setText('');
    } catch {
      // The caller has told the user why; the text stays for another try.
    } finally {
      setSending(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} aria-label={t('Send a message')}>
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          aria-label={t('Message')}
          placeholder={t('say something nice')}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setError(undefined);
          }}
          error={error}
          autoComplete="off"
          style={{ flex: 1 }}
        />
        <Button type="submit" disabled={blank} loading={sending}>
          {t('Send')}
        </Button>
      </Group>
    </form>
  );
}
