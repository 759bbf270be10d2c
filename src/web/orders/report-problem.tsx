import {
  Alert,
  Button,
  CloseButton,
  FileButton,
  Group,
  Image,
  Modal,
  Radio,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RefundAs } from '../../shared/credit.js';
import { imageUrl } from '../../shared/image-urls.js';
import type { StoredImage } from '../../shared/images.js';
import { groupLines, type CustomerOrder } from '../../shared/orders.js';
import {
  MAX_PROBLEM_PHOTOS,
  PROBLEM_DETAILS_MAX,
  PROBLEM_REASON_NAMES,
  PROBLEM_REASONS,
  type ProblemReason,
  type ProblemReport,
  type ProblemReportInput,
} from '../../shared/problem-reports.js';
import { useUploadPicture } from '../images/use-upload-picture.js';
import { api, ApiError } from '../lib/api-client.js';
import { t } from '../i18n.js';
import { myOrderKey, myOrdersKey } from './use-my-order.js';
import { DishCounts, useDishCounts } from './dish-counts.js';

/** A stored photo's smallest size. */
const thumbnail = (photo: StoredImage) => imageUrl(photo.id, photo.widths[0] ?? photo.width);

/** The dishes a report names: 'Dal × 2, Rice'. */
const dishesText = (report: ProblemReport) =>
  report.dishes
    .map((d) => (d.quantity > 1 ? t('{item} × {quantity}', { item: d.item, quantity: d.quantity }) : d.item))
    .join(', ');

/** The photos of a report, each a link to its largest size. */
export function ProblemPhotos({ photos }: { photos: StoredImage[] }) {
  if (photos.length === 0) return null;
  return (
    <Group gap="xs">
      {photos.map((photo, i) => (
        <a key={photo.id} href={imageUrl(photo.id, photo.width)} target="_blank" rel="noreferrer">
          <Image
            src={thumbnail(photo)}
            alt={t('Photo {n} of the problem', { n: i + 1 })}
            w={96}
            h={Math.round((96 * photo.height) / photo.width)}
            radius="sm"
            fit="cover"
          />
        </a>
      ))}
    </Group>
  );
}

/** A report as both sides read it: the reason, the dishes, the words and the photos. */
export function ProblemSummary({ report }: { report: ProblemReport }) {
  return (
    <Stack gap={4}>
      <Text size="sm">
        {t('{reason}: {dishes}', {
          reason: t(PROBLEM_REASON_NAMES[report.reason]),
          dishes: dishesText(report),
        })}
      </Text>
      {report.details ? (
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {report.details}
        </Text>
      ) : null}
      {report.refundAs === 'credit' ? (
        <Text size="sm">{t('Asks for store credit rather than money back to the card')}</Text>
      ) : null}
      <ProblemPhotos photos={report.photos} />
    </Stack>
  );
}

function useReportProblem(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProblemReportInput) =>
      api.post<ProblemReport>(`/api/orders/${encodeURIComponent(orderId)}/problem`, body),
    onSuccess: (problem) => {
      queryClient.setQueryData<CustomerOrder | null>(myOrderKey, (o) =>
        o?.id === orderId ? { ...o, problem } : o,
      );
      queryClient.setQueryData<CustomerOrder[]>(myOrdersKey, (list) =>
        list?.map((o) => (o.id === orderId ? { ...o, problem } : o)),
      );
    },
  });
}

/** The form: the dishes concerned and how many, what went wrong, words, up to 3 photos. */
function ReportForm({ order, onDone }: { order: CustomerOrder; onDone: () => void }) {
  const lines = groupLines(order.items);
  const { counts, setCount, dishes } = useDishCounts(lines);
  const [reason, setReason] = useState<ProblemReason | ''>('');
  const [details, setDetails] = useState('');
  const [refundAs, setRefundAs] = useState<RefundAs>('card');
  const [photos, setPhotos] = useState<StoredImage[]>([]);
  const [error, setError] = useState<{ field?: string | undefined; message: string }>();
  const upload = useUploadPicture('/api/customer/images');
  const report = useReportProblem(order.id);

  const addPhoto = async (file: File | null) => {
    if (!file) return;
    try {
      const photo = await upload.mutateAsync(file);
      setPhotos((now) => [...now, photo].slice(0, MAX_PROBLEM_PHOTOS));
      setError(undefined);
    } catch (failure) {
      setError({ field: 'photoIds', message: t((failure as Error).message) });
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (dishes.length === 0) return setError({ field: 'dishes', message: t('Choose at least one dish') });
    if (!reason) return setError({ field: 'reason', message: t('Choose what went wrong') });
    try {
      await report.mutateAsync({
        reason,
        dishes,
        details: details.trim(),
        photoIds: photos.map((p) => p.id),
        refundAs,
      });
      onDone();
    } catch (failure) {
      setError({
        field: failure instanceof ApiError ? failure.field : undefined,
        message: t((failure as Error).message),
      });
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack>
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <Text component="legend" fw={500} mb={4}>
            {t('Which dishes?')}
          </Text>
          <Stack gap={6}>
            <DishCounts lines={lines} counts={counts} setCount={setCount} />
          </Stack>
        </fieldset>
        <Radio.Group
          label={t('What went wrong?')}
          value={reason}
          onChange={(v) => setReason(v as ProblemReason)}
        >
          <Stack gap={6} mt={4}>
            {PROBLEM_REASONS.map((r) => (
              <Radio key={r} value={r} label={t(PROBLEM_REASON_NAMES[r])} />
            ))}
          </Stack>
        </Radio.Group>
        {reason === 'made_ill' ? (
          <Text size="sm">
            {t('We also pass this on to our food safety team, who may contact the kitchen.')}
          </Text>
        ) : null}
        <Radio.Group
          label={t('If the kitchen gives money back')}
          value={refundAs}
          onChange={(v) => setRefundAs(v as RefundAs)}
        >
          <Stack gap={6} mt={4}>
            <Radio value="card" label={t('Back to my card')} />
            <Radio value="credit" label={t("As store credit, for any kitchen's order")} />
          </Stack>
        </Radio.Group>
        <Textarea
          label={t('Tell the kitchen what happened')}
          value={details}
          onChange={(e) => setDetails(e.currentTarget.value)}
          maxLength={PROBLEM_DETAILS_MAX}
          autosize
          minRows={2}
        />
        <Stack gap={6}>
          <Group gap="xs">
            {photos.map((photo, i) => (
              <Group key={photo.id} gap={2} wrap="nowrap">
                <Image
                  src={thumbnail(photo)}
                  alt={t('Photo {n} of the problem', { n: i + 1 })}
                  w={72}
                  h={Math.round((72 * photo.height) / photo.width)}
                  radius="sm"
                  fit="cover"
                />
                <CloseButton
                  aria-label={t('Remove photo {n}', { n: i + 1 })}
                  onClick={() => setPhotos((now) => now.filter((p) => p.id !== photo.id))}
                />
              </Group>
            ))}
          </Group>
          {photos.length < MAX_PROBLEM_PHOTOS ? (
            <FileButton onChange={(file) => void addPhoto(file)} accept="image/*">
              {(props) => (
                <Button variant="light" loading={upload.isPending} {...props} w="fit-content">
                  {t('Add a photo')}
                </Button>
              )}
            </FileButton>
          ) : null}
          <Text size="xs" c="dimmed">
            {t('Up to {max} photos.', { max: MAX_PROBLEM_PHOTOS })}
          </Text>
        </Stack>
        {error ? (
          <Text c="red" size="sm" role="alert">
            {error.message}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={report.isPending} disabled={upload.isPending}>
            {t('Send report')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * On a delivered (or collected) order, for 48 hours: 'Report a problem'; then the report, until a refund answers it.
 */
export function ReportProblem({ order, compact = false }: { order: CustomerOrder; compact?: boolean }) {
  const [open, setOpen] = useState(false);
  const reported = order.problem && !order.problem.resolvedAt ? order.problem : null;
  if (reported && compact)
    return (
      <Text size="sm" fw={600}>
        {t('You reported a problem')}
      </Text>
    );
  if (reported)
    return (
      <Alert
        color="orange"
        title={t('You reported a problem')}
        maw={560}
        styles={{ title: { color: '#8a3b00' } }}
      >
        <Stack gap="xs">
          <ProblemSummary report={reported} />
          <Text size="sm">{t('The kitchen will answer you in the messages of this order.')}</Text>
        </Stack>
      </Alert>
    );
  const until = order.problemReportUntil;
  const closed = order.problem?.closedReason ? order.problem : null;
  const closedNote =
    closed && !compact ? (
      <Alert color="gray" title={t('Your report was closed without a refund')} maw={560}>
        <Text size="sm">
          {closed.closedBy === 'operator'
            ? t('HomeCooked says: {reason}', { reason: closed.closedReason ?? '' })
            : t('The kitchen says: {reason}', { reason: closed.closedReason ?? '' })}
        </Text>
      </Alert>
    ) : null;
  if (order.state !== 'delivered' || !until || Date.now() > new Date(until).getTime()) return closedNote;
  return (
    <>
      {closedNote}
      <Group>
        <Button variant="default" onClick={() => setOpen(true)}>
          {t('Report a problem')}
        </Button>
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('Report a problem')}>
        {open ? <ReportForm order={order} onDone={() => setOpen(false)} /> : null}
      </Modal>
    </>
  );
}
