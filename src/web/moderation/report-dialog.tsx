import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import {
  ALREADY_REPORTED,
  REPORT_REASON_MAX,
  ReportInput,
  type ReportTargetKind,
} from '../../shared/moderation.js';
import { ApiError } from '../lib/api-client.js';
import { useReport } from './use-report.js';
import { msg, t } from '../i18n.js';

const TITLE: Record<ReportTargetKind, string> = {
  chat_message: msg('Report this message'),
  review: msg('Report this review'),
  kitchen: msg('Report this kitchen'),
};

/** The dialog asking why 'Report' was pressed; the operators see the report on /Operator at once. */
export function ReportDialog({
  targetKind,
  targetId,
  opened,
  onClose,
}: {
  targetKind: ReportTargetKind;
  targetId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const report = useReport();

  const close = () => {
    onClose();
    setError(undefined);
    report.reset();
  };
  const submit = async () => {
    const parsed = ReportInput.safeParse({ targetKind, targetId, reason });
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]?.message ?? 'Please say why'));
      return;
    }
    try {
      await report.mutateAsync(parsed.data);
      notifications.show({ title: t('Thank you'), message: t('An operator will look at your report.') });
      setReason('');
      close();
    } catch (failure) {
      if (failure instanceof ApiError && failure.body.code === ALREADY_REPORTED) {
        notifications.show({ title: t('Already reported'), message: t(failure.message) });
        close();
        return;
      }
      setError(
        failure instanceof Error ? t(failure.message) : t('The report was not sent. Please try again.'),
      );
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t(TITLE[targetKind])} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {t('Tell the operators what is wrong. They see your name, not your email.')}
          </Text>
          <Textarea
            label={t('Reason')}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            error={error}
            maxLength={REPORT_REASON_MAX}
            autosize
            minRows={3}
            data-autofocus
            required
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={report.isPending}>
              {t('Send report')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
