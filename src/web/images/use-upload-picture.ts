import { useMutation } from '@tanstack/react-query';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_MB, type StoredImage } from '../../shared/images.js';
import { api, ApiError } from '../lib/api-client.js';

/** Sends a chosen photo to the server, which checks it and stores its sizes; files over the limit stay here. */
export function useUploadPicture() {
  return useMutation<StoredImage, Error, File>({
    mutationFn: async (file) => {
      if (file.size > MAX_UPLOAD_BYTES)
        throw new ApiError(413, {
          code: 'IMAGE_TOO_LARGE',
          message: `The picture is larger than ${MAX_UPLOAD_MB} MB`,
          field: 'file',
        });
      return api.upload<StoredImage>('/api/kitchen/images', file);
    },
  });
}
