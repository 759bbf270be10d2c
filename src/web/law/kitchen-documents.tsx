import {
  Anchor,
  Button,
  FileInput,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import {
  DOCUMENT_KINDS,
  DOCUMENT_LABELS,
  type DocumentFile,
  type DocumentKind,
  type KitchenDocument,
} from '../../shared/kitchen-documents.js';
import { ApiError } from '../lib/api-client.js';
import { LoadFailed } from '../lib/load-failed.js';
import { t } from '../i18n.js';
import { DocumentPauseAlert } from './document-pause.js';
import {
  useAddDocument,
  useAttachDocumentFile,
  useKitchenDocuments,
  useUploadDocumentFile,
} from './use-kitchen-rules.js';

/** A link that opens the photo or PDF of a paper in a new tab (it is private: only the cook and operators see it). */
export function DocumentFileLink({ file }: { file: DocumentFile }) {
  return (
    <Anchor href={file.url} target="_blank" rel="noopener">
      {file.type === 'pdf' ? t('View the PDF') : t('View the photo')}
    </Anchor>
  );
}

/**
 * A photo or PDF for a document added earlier: chosen, it is uploaded and attached at once (replacing the one the
 * document had); the document itself stays as it was.
 */
function AttachFile({ ownerUid, document }: { ownerUid: string; document: KitchenDocument }) {
  const upload = useUploadDocumentFile();
  const attach = useAttachDocumentFile(ownerUid);
  const [error, setError] = useState<string | undefined>();
  const label = t(DOCUMENT_LABELS[document.kind]) + (document.holder ? ` (${document.holder})` : '');
  // The visible label is within the name a screen reader says, which names the document too (WCAG 2.5.3).
  const choose = async (file: File | null) => {
    if (!file) return;
    setError(undefined);
    try {
      await attach.mutateAsync({ id: document.id, file: await upload.mutateAsync(file) });
      notifications.show({ color: 'green', title: t('File attached'), message: label });
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <FileInput
      size="xs"
      aria-label={
        document.file
          ? t('Replace the photo or PDF of {document}', { document: label })
          : t('Attach a photo or PDF to {document}', { document: label })
      }
      label={document.file ? t('Replace the photo or PDF') : t('Attach a photo or PDF')}
      accept={ACCEPTED_FILES}
      value={null}
      onChange={(file) => void choose(file)}
      disabled={upload.isPending || attach.isPending}
      error={error}
    />
  );
}

const ACCEPTED_FILES = 'image/jpeg,image/png,image/webp,image/avif,application/pdf';

/** The cook's permit number and certificates with their expiry dates, and a form to add one (or its renewal). */
export function KitchenDocumentsSection({ ownerUid }: { ownerUid: string }) {
  const documents = useKitchenDocuments(ownerUid);
  const add = useAddDocument(ownerUid);
  const upload = useUploadDocumentFile();
  const [file, setFile] = useState<File | null>(null);
  const [kind, setKind] = useState<DocumentKind>('permit');
  const [number, setNumber] = useState('');
  const [holder, setHolder] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [error, setError] = useState<{ field?: string | undefined; message: string } | undefined>();
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);

  const submit = async () => {
    setError(undefined);
    try {
      const attached = file ? await upload.mutateAsync(file) : undefined;
      await add.mutateAsync({ kind, number, holder, expiresOn, ...(attached ? { file: attached } : {}) });
      notifications.show({ color: 'green', title: t('Document added'), message: t(DOCUMENT_LABELS[kind]) });
      setNumber('');
      setHolder('');
      setExpiresOn('');
      setFile(null);
    } catch (e) {
      setError({ field: e instanceof ApiError ? e.field : undefined, message: (e as Error).message });
    }
  };

  if (documents.isError)
    return (
      <LoadFailed
        title={t('Could not load your documents')}
        error={documents.error}
        retry={() => void documents.refetch()}
      />
    );
  return (
    <Paper component="section" withBorder radius="md" p="lg" aria-labelledby="documents-heading">
      <Stack>
        <Title order={2} size="h3" id="documents-heading">
          {t('Your permit and certificates')}
        </Title>
        <DocumentPauseAlert pause={documents.data?.pause} />
        {documents.data && documents.data.required.length > 0 && (
          <Text size="sm">
            {t('Required here: {documents}', {
              documents: documents.data.required.map((k) => t(DOCUMENT_LABELS[k])).join(', '),
            })}
          </Text>
        )}
        {documents.data && documents.data.documents.length > 0 && (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Document')}</Table.Th>
                <Table.Th>{t('Number')}</Table.Th>
                <Table.Th>{t('Expires on')}</Table.Th>
                <Table.Th>{t('Photo or PDF')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {documents.data.documents.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>
                    {t(DOCUMENT_LABELS[d.kind])}
                    {d.holder ? ` (${d.holder})` : ''}
                  </Table.Td>
                  <Table.Td>{d.number}</Table.Td>
                  <Table.Td>{d.expiresOn}</Table.Td>
                  <Table.Td>
                    <Stack gap={4}>
                      {d.file && <DocumentFileLink file={d.file} />}
                      <AttachFile ownerUid={ownerUid} document={d} />
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group align="flex-end" wrap="wrap">
          <Select
            label={t('Document')}
            data={DOCUMENT_KINDS.map((k) => ({ value: k, label: t(DOCUMENT_LABELS[k]) }))}
            value={kind}
            onChange={(value) => value && setKind(value as DocumentKind)}
            allowDeselect={false}
            error={errorOf('kind')}
          />
          <TextInput
            label={t('Number')}
            value={number}
            onChange={(e) => setNumber(e.currentTarget.value)}
            error={errorOf('number')}
          />
          {kind === 'food-handler-card' && (
            <TextInput
              label={t('Helper’s name')}
              value={holder}
              onChange={(e) => setHolder(e.currentTarget.value)}
              error={errorOf('holder')}
            />
          )}
          <TextInput
            type="date"
            label={t('Expires on')}
            value={expiresOn}
            onChange={(e) => setExpiresOn(e.currentTarget.value)}
            error={errorOf('expiresOn')}
          />
          <FileInput
            label={t('Photo or PDF')}
            accept={ACCEPTED_FILES}
            value={file}
            onChange={setFile}
            clearable
            error={errorOf('file')}
          />
          <Button onClick={() => void submit()} loading={add.isPending || upload.isPending}>
            {t('Add document')}
          </Button>
        </Group>
        {error && !error.field && (
          <Text c="red.9" role="alert">
            {error.message}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
