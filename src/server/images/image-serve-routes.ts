import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentOperator, currentUser } from '../identity/sessions.js';
import { notFound } from '../lib/errors.js';
import { mayViewImage } from '../pictures/image-queries.js';

const ImageFileParams = z.object({ file: z.string() });
const FILE_NAME = /^([0-9a-f-]{36})-(\d{1,4})\.webp$/;

/**
 * Stored pictures at `/images/{id}-{width}.webp`. A name never gets other content (a new upload is a new id),
 * so browsers and caches keep them for a year without asking again. A private picture (a customer's photo of a
 * problem) is served only to its uploader, the order's kitchen and operators, kept by the browser alone, and is "no
 * picture by this name" to anyone else: its address is no key to it.
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
          errors: { 404: 'No picture by this name, or a private one this request may not see' },
        },
      },
      schema: { params: ImageFileParams },
    },
    async (request, reply) => {
      const match = FILE_NAME.exec(request.params.file);
      const [, id = '', width = '0'] = match ?? [];
      if (!z.string().uuid().safeParse(id).success) throw notFound('No picture by this name');
      const shownTo = async () => {
        if (await currentOperator(request)) return true;
        const users = await Promise.all([currentUser(request, 'customer'), currentUser(request, 'kitchen')]);
        const ids = users.flatMap((user) => (user ? [user.id] : []));
        return ids.length > 0 && (await mayViewImage(app.db, id, ids)) === true;
      };
      const isPublic = await mayViewImage(app.db, id, []);
      if (isPublic === undefined || (!isPublic && !(await shownTo())))
        throw notFound('No picture by this name');
      const etag = `"${id}-${width}"`;
      reply
        .header('cache-control', isPublic ? 'public, max-age=31536000, immutable' : 'private, max-age=3600')
        .header('etag', etag);
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
