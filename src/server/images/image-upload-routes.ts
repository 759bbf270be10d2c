import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_UPLOAD_BYTES, StoredImage } from '../../shared/images.js';
import { requireUser } from '../identity/sessions.js';
import { badRequest } from '../lib/errors.js';
import { limits } from '../identity/rate-limit.js';
import { storeUpload } from '../pictures/image-service.js';
import { pictureTooLarge } from '../pictures/process-image.js';

/** Who uploads where, and what for. */
const UPLOADS = [
  {
    url: '/api/kitchen/images',
    role: 'kitchen',
    private: false,
    summary: 'Upload a picture (the bytes as the body: JPEG, PNG, WebP or AVIF, 10 MB at most)',
  },
  {
    url: '/api/customer/images',
    role: 'customer',
    // Shown to the customer, the order's kitchen and operators only (image-serve-routes.ts).
    private: true,
    summary:
      "Upload a photo of a problem with one's order (the bytes as the body: JPEG, PNG, WebP or AVIF, 10 MB at most); it is theirs to attach to a problem report",
  },
] as const;

/**
 * Uploading a picture: the file's bytes as the body (`content-type: image/*`, as a browser's `fetch(file)` sends
 * it), so the rest of the JSON API keeps its 64 KB limit. This scope alone reads any body as bytes, up to 10 MB.
 * Any kitchen-session user may upload (a cook registering has no kitchen yet); a picture is attached to a kitchen
 * or dish only by the cook who uploaded it. A customer uploads photos of a problem with an order the same way, to
 * attach to their own report only.
 */
export const imageUploadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  for (const { url, role, private: isPrivate, summary } of UPLOADS)
    app.post(
      url,
      {
        bodyLimit: MAX_UPLOAD_BYTES,
        config: {
          doc: {
            summary,
            cookie: role,
            errors: { 413: 'Larger than 10 MB or 50 megapixels', 415: 'Not a picture we read' },
          },
          rateLimit: limits.imageUploads,
        },
        schema: { response: { 201: StoredImage } },
        // Refused before a byte of an announced oversize body is read. A chunked one (no length: browsers always
        // send one for a file) is cut off at the limit by Fastify, which answers its own 413.
        onRequest: async (request) => {
          if (Number(request.headers['content-length'] ?? 0) > MAX_UPLOAD_BYTES) throw pictureTooLarge();
        },
      },
      async (request, reply) => {
        const user = await requireUser(request, role);
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0)
          throw badRequest('Choose a picture to upload', 'file');
        return reply.status(201).send(await storeUpload(app, user.id, body, { private: isPrivate }));
      },
    );
};
