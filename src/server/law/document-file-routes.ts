import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_MB } from '../../shared/images.js';
import { DocumentFileRef, MAX_DOCUMENT_PDF_MB } from '../../shared/kitchen-documents.js';
import { msg } from '../../shared/i18n/translator.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { currentOperator, currentUser } from '../identity/sessions.js';
import { limits } from '../identity/rate-limit.js';
import { badRequest, HttpError, notFound } from '../lib/errors.js';
import { insertDocumentPdf, isPdf, readDocumentPdf } from '../pictures/document-pdfs.js';
import { storeUpload } from '../pictures/image-service.js';

const tooLarge = () =>
  new HttpError(
    413,
    'FILE_TOO_LARGE',
    msg('A photo is at most {photo} MB and a PDF {pdf} MB'),
    'file',
    undefined,
    {
      photo: MAX_UPLOAD_MB,
      pdf: MAX_DOCUMENT_PDF_MB,
    },
  );

/**
 * A photo or PDF of a cook's paper (a permit, a certificate, a helper's card): the file's bytes as the body, as the
 * pictures' uploads take them. A PDF (told by its bytes, `%PDF-`) is kept as it is, 5 MB at most; anything else must
 * be a picture we read, stripped of its metadata and stored private. Either is shown only to the cook and operators.
 */
export const documentFileUploadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/api/kitchen/document-files',
    {
      bodyLimit: MAX_UPLOAD_BYTES,
      config: {
        doc: {
          summary:
            "Upload a photo or PDF of one of the cook's papers (the bytes as the body: a JPEG, PNG, WebP or AVIF photo up to 10 MB, or a PDF up to 5 MB); private, it is theirs to attach to a document",
          cookie: 'kitchen',
          errors: {
            404: 'No kitchen yet',
            413: 'A photo larger than 10 MB, or a PDF larger than 5 MB',
            415: 'Neither a picture we read nor a PDF',
          },
        },
        rateLimit: limits.imageUploads,
      },
      schema: { response: { 201: DocumentFileRef } },
      onRequest: async (request) => {
        if (Number(request.headers['content-length'] ?? 0) > MAX_UPLOAD_BYTES) throw tooLarge();
      },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw badRequest('Choose a photo or PDF to upload', 'file');
      if (isPdf(body))
        return reply
          .status(201)
          .send({ type: 'pdf', id: await insertDocumentPdf(app.db, kitchen.uid, body) });
      try {
        const image = await storeUpload(app, kitchen.uid, body, { private: true });
        return reply.status(201).send({ type: 'photo', id: image.id });
      } catch (error) {
        if (error instanceof HttpError && error.code === 'UNSUPPORTED_IMAGE')
          throw new HttpError(
            415,
            'UNSUPPORTED_FILE',
            msg('This file is neither a photo nor a PDF: upload a JPEG, PNG, WebP or AVIF photo, or a PDF'),
            'file',
          );
        throw error;
      }
    },
  );
};

/** The PDF of a paper, shown in the browser: to its cook and operators; anyone else is told there is no such file. */
export const documentFileServeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/document-files/:id',
    {
      config: {
        doc: {
          summary:
            "The PDF of a cook's paper (`content-disposition: inline`), for the cook's kitchen session or an operator's; to anyone else there is no such file",
          responses: { 200: { description: 'The PDF as the cook uploaded it', type: 'application/pdf' } },
          errors: { 404: 'No PDF by this id, or one this request may not see' },
        },
      },
      schema: { params: z.object({ id: z.string().uuid() }) },
    },
    async (request, reply) => {
      const operator = await currentOperator(request);
      const users = operator
        ? []
        : await Promise.all([currentUser(request, 'kitchen'), currentUser(request, 'customer')]);
      const bytes = await readDocumentPdf(app.db, request.params.id, {
        anyone: operator !== undefined,
        userIds: users.flatMap((user) => (user ? [user.id] : [])),
      });
      if (!bytes) throw notFound('No PDF by this id');
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'inline; filename="document.pdf"')
        .send(bytes);
    },
  );
};
