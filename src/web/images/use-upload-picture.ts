import { useMutation } from '@tanstack/react-query';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_MB, type StoredImage } from '../../shared/images.js';
import { api, ApiError } from '../lib/api-client.js';
import { t } from '../i18n.js';

/**
 * Sends a chosen photo to the server, which checks it and stores its sizes; files over the limit stay here. A cook's
 * go to `/api/kitchen/images`, a customer's (photos of a problem) to `/api/customer/images`.
 */
export function useUploadPicture(url = '/api/kitchen/images') {
  return useMutation<StoredImage, Error, File>({
    mutationFn: async (file) => {
      if (file.size > MAX_UPLOAD_BYTES)
        throw new ApiError(413, {
          code: 'IMAGE_TOO_LARGE',
          message: t('The picture is larger than {mb} MB', { mb: MAX_UPLOAD_MB }),
          field: 'file',
        });
      return api.upload<StoredImage>(url, file);
    },
  });
}
