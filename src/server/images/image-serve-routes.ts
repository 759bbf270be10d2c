import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../lib/errors.js';

const ImageFileParams = z.object({ file: z.string() });
const FILE_NAME = /^([0-9a-f-]{36})-(\d{1,4})\.webp$/;

/**
 * Stored pictures at `/images/{id}-{width}.webp`. A name never gets other content (a new upload is a new id),
 * so browsers and caches keep them for a year without asking again.
 */
export const imageServeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/images/:file',
    {
      config: {
        doc: {
          summary: 'A stored picture size, `{id}-{width}.webp` (immutable, cached for a year)',
          tags: ['pictures'],
          responses: {
            200: { description: 'The picture', type: 'image/webp' },
            304: { description: 'Not modified (ETag)', type: '' },
          },
          errors: { 404: 'No picture by this name' },
        },
      },
      schema: { params: ImageFileParams },
    },
    async (request, reply) => {
      const match = FILE_NAME.exec(request.params.file);
      const [, id = '', width = '0'] = match ?? [];
      if (!z.string().uuid().safeParse(id).success) throw notFound('No picture by this name');
      const etag = `"${id}-${width}"`;
      reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      const variant = await app.imageStore.get(id, Number(width));
      if (!variant) {
        reply.header('cache-control', 'no-store').removeHeader('etag');
        throw notFound('No picture by this name');
      }
      return reply.type(variant.contentType).send(variant.bytes);
    },
  );
};
