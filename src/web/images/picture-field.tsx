import {
  Box,
  Button,
  FileButton,
  Group,
  Image,
  Input,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useId, useState, type DragEvent, type ReactNode } from 'react';
import { imageUrl, MAX_UPLOAD_MB, type StoredImage } from '../../shared/images.js';
import { useUploadPicture } from './use-upload-picture.js';
import { t } from '../i18n.js';

export interface PictureValue {
  imageLink?: string | undefined;
  imageId?: string | undefined;
}

type Mode = 'upload' | 'link';

/**
 * A kitchen's or dish's picture: 'Upload a photo' (choose a file, drop one, or take one with a phone's camera;
 * uploaded at once and previewed before the form is saved) or 'Use a link' (the spec's link field). The value is
 * either `imageId` or `imageLink`, never both.
 */
export function PictureField({
  linkLabel,
  value,
  onChange,
  error,
  initialImage,
}: {
  linkLabel: string;
  value: PictureValue;
  onChange: (value: PictureValue) => void;
  error?: ReactNode;
  /** The picture already saved, shown until another is chosen. */
  initialImage?: StoredImage | null | undefined;
}) {
  const [mode, setMode] = useState<Mode>(value.imageId ? 'upload' : 'link');
  const [uploaded, setUploaded] = useState<StoredImage | null>(initialImage ?? null);
  const [dragging, setDragging] = useState(false);
  const upload = useUploadPicture();
  const id = useId();
  // The form was emptied (after adding a dish): start again from a link, with nothing uploaded.
  if (mode === 'upload' && value.imageId === undefined && value.imageLink !== undefined) {
    setMode('link');
    setUploaded(null);
  }

  const choose = (file: File | null) => {
    if (!file) return;
    upload.mutate(file, {
      onSuccess: (image) => {
        setUploaded(image);
        onChange({ imageId: image.id, imageLink: undefined });
      },
    });
  };
  const switchTo = (next: Mode) => {
    setMode(next);
    upload.reset();
    onChange(
      next === 'link'
        ? { imageLink: '', imageId: undefined }
        : { imageLink: undefined, imageId: uploaded?.id },
    );
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0] ?? null);
  };
  const problem = upload.error?.message ?? (mode === 'upload' ? error : undefined);

  return (
    <Stack gap={6}>
      <Input.Label required id={`${id}-label`}>
        {t('Picture')}
      </Input.Label>
      <SegmentedControl
        aria-labelledby={`${id}-label`}
        value={mode}
        onChange={(next) => switchTo(next as Mode)}
        data={[
          { value: 'upload', label: t('Upload a photo') },
          { value: 'link', label: t('Use a link') },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {mode === 'link' ? (
        <TextInput
          type="url"
          label={linkLabel}
          description={t('A link to a picture, starting with https://')}
          placeholder="https://"
          withAsterisk
          value={value.imageLink ?? ''}
          onChange={(event) => onChange({ imageLink: event.currentTarget.value, imageId: undefined })}
          error={error}
        />
      ) : (
        <Box
          role="group"
          aria-label={t('Photo upload')}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          p="sm"
          style={{
            border: `2px dashed var(--mantine-color-${dragging ? 'blue-6' : 'gray-4'})`,
            borderRadius: 'var(--mantine-radius-md)',
          }}
        >
          <Group align="center" wrap="wrap" gap="md">
            {uploaded ? (
              <Image
                src={imageUrl(uploaded.id, uploaded.widths[0] ?? uploaded.width)}
                alt={t('Preview of your photo')}
                w={160}
                h={Math.round((160 * uploaded.height) / uploaded.width)}
                radius="sm"
                fit="cover"
              />
            ) : null}
            <Stack gap={6}>
              <Group gap="xs">
                <FileButton onChange={choose} accept="image/*">
                  {(props) => (
                    <Button variant="light" loading={upload.isPending} {...props}>
                      {uploaded ? t('Choose another photo') : t('Choose a photo')}
                    </Button>
                  )}
                </FileButton>
                <FileButton onChange={choose} accept="image/*" capture="environment">
                  {(props) => (
                    <Button variant="default" disabled={upload.isPending} {...props}>
                      {t('Take a photo')}
                    </Button>
                  )}
                </FileButton>
              </Group>
              <Text size="xs" c="dimmed">
                {upload.isPending
                  ? t('Uploading…')
                  : t('Or drop one here. JPEG, PNG, WebP or AVIF, at most {mb} MB.', { mb: MAX_UPLOAD_MB })}
              </Text>
            </Stack>
          </Group>
          {problem ? (
            <Text size="sm" c="red" role="alert" mt="xs">
              {problem}
            </Text>
          ) : null}
        </Box>
      )}
    </Stack>
  );
}
