import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MAX_DOCUMENT_PDF_BYTES,
  MAX_DOCUMENT_PDF_MB,
  type DocumentFileRef,
  type HelperInput,
  type KitchenHelper,
  type KitchenDocument,
  type KitchenDocumentInput,
  type KitchenDocuments,
} from '../../shared/kitchen-documents.js';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_MB } from '../../shared/images.js';
import { t } from '../i18n.js';
import type { KitchenRules } from '../../shared/jurisdictions.js';
import { api, ApiError } from '../lib/api-client.js';
import { kitchenBookingKey } from './use-kitchen-booking.js';

/** Keyed by the cook, so that another cook signing in on this browser never sees these. */
export const kitchenRulesKey = (ownerUid: string) => ['kitchen-rules', ownerUid] as const;

/** The rules of the signed-in cook's place, why they apply, and what their orders counted against the caps. */
export function useKitchenRules(ownerUid: string) {
  return useQuery({
    queryKey: kitchenRulesKey(ownerUid),
    queryFn: () => api.get<KitchenRules>('/api/kitchen/rules'),
  });
}

export const kitchenDocumentsKey = (ownerUid: string) => ['kitchen-documents', ownerUid] as const;

/** The cook's permit and certificates, which ones their rules require, and the pause a missing or expired one makes. */
export function useKitchenDocuments(ownerUid: string) {
  return useQuery({
    queryKey: kitchenDocumentsKey(ownerUid),
    queryFn: () => api.get<KitchenDocuments>('/api/kitchen/documents'),
  });
}

/** Adds a document (or its renewal); the list, the pause and the kitchen's booking are asked again. */
export function useAddDocument(ownerUid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: KitchenDocumentInput) => api.post<KitchenDocument>('/api/kitchen/documents', input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: kitchenDocumentsKey(ownerUid) }),
        queryClient.invalidateQueries({ queryKey: kitchenBookingKey(ownerUid) }),
      ]),
  });
}

/** Adds a helper, or removes one; the list (their cards due) and the pause are asked again. */
export function useHelpers(ownerUid: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: kitchenDocumentsKey(ownerUid) }),
      queryClient.invalidateQueries({ queryKey: kitchenBookingKey(ownerUid) }),
    ]);
  return {
    add: useMutation({
      mutationFn: (input: HelperInput) => api.post<KitchenHelper>('/api/kitchen/helpers', input),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.delete<void>(`/api/kitchen/helpers/${id}`),
      onSuccess: refresh,
    }),
  };
}

/** Attaches a photo or PDF (uploaded first) to a document added earlier, or replaces its file. */
export function useAttachDocumentFile(ownerUid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: DocumentFileRef }) =>
      api.put<KitchenDocument>(`/api/kitchen/documents/${id}/file`, { file }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: kitchenDocumentsKey(ownerUid) }),
  });
}

/** Sends a photo or PDF of a paper to the server, which keeps it private; files over the limits stay here. */
export function useUploadDocumentFile() {
  return useMutation<DocumentFileRef, Error, File>({
    mutationFn: async (file) => {
      const pdf = file.type === 'application/pdf';
      if (file.size > (pdf ? MAX_DOCUMENT_PDF_BYTES : MAX_UPLOAD_BYTES))
        throw new ApiError(413, {
          code: 'FILE_TOO_LARGE',
          message: t('A photo is at most {photo} MB and a PDF {pdf} MB', {
            photo: MAX_UPLOAD_MB,
            pdf: MAX_DOCUMENT_PDF_MB,
          }),
          field: 'file',
        });
      return api.upload<DocumentFileRef>('/api/kitchen/document-files', file);
    },
  });
}
