import sharp from 'sharp';
import { afterAll, expect, it } from 'vitest';
import type { DocumentFileRef, KitchenDocument, KitchenDocuments } from '../../shared/kitchen-documents.js';
import { MAX_DOCUMENT_PDF_BYTES } from '../../shared/kitchen-documents.js';
import type { ModerationView } from '../../shared/moderation.js';
import { sweepAbandonedImages } from '../images/image-sweep.js';
import { buildKitchen } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { startCaliforniaGeocoder } from '../test/law.js';
import { OPERATOR_EMAIL, operatorEnv, send } from '../test/moderation.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { makePhoneJpeg } from '../test/test-images.js';

const fake = await startCaliforniaGeocoder();
afterAll(() => fake.close());

/** A small but well-formed PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

describeEachEngine(
  "photos and PDFs of a cook's papers",
  (get) => {
    const upload = (ctx: TestContext, cookie: string | undefined, bytes: Buffer, type: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/kitchen/document-files',
        headers: { 'content-type': type, ...(cookie ? { cookie } : {}) },
        payload: bytes,
      });
    const addCertificate = (ctx: TestContext, cookie: string, file?: DocumentFileRef) =>
      send(ctx.app, 'POST', '/api/kitchen/documents', cookie, {
        kind: 'food-safety-certificate',
        number: 'FSM-7731',
        expiresOn: '2030-12-31',
        ...(file ? { file } : {}),
      });
    const californian = (ctx: TestContext) =>
      buildKitchen(ctx, { address: '12 Sunset Boulevard', timeZone: 'America/Los_Angeles' });
    const operator = (ctx: TestContext) => signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });

    it('keeps a photo of a certificate stripped of its metadata, private: the cook and operators see it, others get 404', async () => {
      const ctx = get();
      const cook = await californian(ctx);
      const uploaded = await upload(ctx, cook.cookie, await makePhoneJpeg(), 'image/jpeg');
      expect(uploaded.statusCode).toBe(201);
      const ref = uploaded.json<DocumentFileRef>();
      expect(ref.type).toBe('photo');

      const added = await addCertificate(ctx, cook.cookie, ref);
      expect(added.statusCode).toBe(201);
      const { file } = added.json<KitchenDocument>();
      expect(file).toEqual({
        type: 'photo',
        url: expect.stringMatching(new RegExp(`^/images/${ref.id}-\\d+\\.webp$`)),
      });
      const listed = (
        await send(ctx.app, 'GET', '/api/kitchen/documents', cook.cookie)
      ).json<KitchenDocuments>();
      expect(listed.documents.find((d) => d.kind === 'food-safety-certificate')?.file).toEqual(file);

      const url = file!.url;
      const mine = await send(ctx.app, 'GET', url, cook.cookie);
      expect(mine.statusCode).toBe(200);
      expect(mine.headers['content-type']).toBe('image/webp');
      expect(mine.headers['cache-control']).toBe('private, max-age=3600');
      const meta = await sharp(mine.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      const ops = await operator(ctx);
      expect((await send(ctx.app, 'GET', url, ops.cookie)).statusCode).toBe(200);
      const other = await buildKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      for (const cookie of [other.cookie, customer.cookie, undefined])
        expect((await send(ctx.app, 'GET', url, cookie)).statusCode).toBe(404);

      // The operator's approval queue shows it beside the certificate.
      const view = (
        await send(ctx.app, 'GET', '/api/operator/moderation', ops.cookie)
      ).json<ModerationView>();
      expect(view.approvals.find((a) => a.uid === cook.kitchen.uid)?.documents).toEqual([
        { kind: 'food-safety-certificate', number: 'FSM-7731', holder: '', expiresOn: '2030-12-31', file },
      ]);
    });

    it('keeps a PDF as it came, served inline to the cook and operators only', async () => {
      const ctx = get();
      const cook = await californian(ctx);
      const uploaded = await upload(ctx, cook.cookie, PDF, 'application/pdf');
      expect(uploaded.statusCode).toBe(201);
      const ref = uploaded.json<DocumentFileRef>();
      expect(ref.type).toBe('pdf');
      const added = await addCertificate(ctx, cook.cookie, ref);
      expect(added.statusCode).toBe(201);
      const { file } = added.json<KitchenDocument>();
      expect(file).toEqual({ type: 'pdf', url: `/api/document-files/${ref.id}` });

      const mine = await send(ctx.app, 'GET', file!.url, cook.cookie);
      expect(mine.statusCode).toBe(200);
      expect(mine.headers['content-type']).toBe('application/pdf');
      expect(mine.headers['content-disposition']).toMatch(/^inline/);
      expect(mine.rawPayload.equals(PDF)).toBe(true);
      const ops = await operator(ctx);
      expect((await send(ctx.app, 'GET', file!.url, ops.cookie)).rawPayload.equals(PDF)).toBe(true);
      const view = (
        await send(ctx.app, 'GET', '/api/operator/moderation', ops.cookie)
      ).json<ModerationView>();
      expect(view.approvals.find((a) => a.uid === cook.kitchen.uid)?.documents[0]?.file).toEqual(file);

      const other = await buildKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      for (const cookie of [other.cookie, customer.cookie, undefined]) {
        const refused = await send(ctx.app, 'GET', file!.url, cookie);
        expect(refused.statusCode).toBe(404);
        expect(refused.headers['content-type']).toMatch(/^application\/json/);
      }
      expect((await send(ctx.app, 'GET', '/api/document-files/not-an-id', cook.cookie)).statusCode).toBe(400);
    });

    it('refuses what is neither a photo nor a PDF, and a PDF over 5 MB, naming the field; nothing is kept', async () => {
      const ctx = get();
      const cook = await californian(ctx);
      const count = async () => {
        const result = await ctx.database.db.execute<{ n: number }>(
          'select (select count(*) from document_files)::int + (select count(*) from images)::int as n',
        );
        return (result as unknown as { rows: { n: number }[] }).rows[0]?.n;
      };
      const before = await count();
      const text = await upload(ctx, cook.cookie, Buffer.from('hello, inspector'), 'text/plain');
      expect(text.statusCode).toBe(415);
      expect(text.json()).toMatchObject({ code: 'UNSUPPORTED_FILE', field: 'file' });
      expect(text.json().message).toMatch(/neither a photo nor a PDF/);
      const big = Buffer.concat([PDF, Buffer.alloc(MAX_DOCUMENT_PDF_BYTES)]);
      const tooBig = await upload(ctx, cook.cookie, big, 'application/pdf');
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json()).toMatchObject({ code: 'FILE_TOO_LARGE', field: 'file' });
      expect(tooBig.json().message).toMatch(/5 MB/);
      const empty = await upload(ctx, cook.cookie, Buffer.alloc(0), 'application/pdf');
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ field: 'file' });
      expect(await count()).toBe(before);
    });

    it("refuses an upload without a kitchen (401, 404), and attaching another cook's file or a public picture", async () => {
      const ctx = get();
      expect((await upload(ctx, undefined, PDF, 'application/pdf')).statusCode).toBe(401);
      const customer = await signedIn(ctx, 'customer');
      expect((await upload(ctx, customer.cookie, PDF, 'application/pdf')).statusCode).toBe(401);
      const noKitchen = await signedIn(ctx, 'kitchen');
      expect((await upload(ctx, noKitchen.cookie, PDF, 'application/pdf')).statusCode).toBe(404);

      const cook = await californian(ctx);
      const other = await buildKitchen(ctx);
      const theirs = (await upload(ctx, other.cookie, PDF, 'application/pdf')).json<DocumentFileRef>();
      const refused = await addCertificate(ctx, cook.cookie, theirs);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ field: 'file' });
      const publicPicture = await ctx.app.inject({
        method: 'POST',
        url: '/api/kitchen/images',
        headers: { 'content-type': 'image/jpeg', cookie: cook.cookie },
        payload: await makePhoneJpeg(),
      });
      const asPhoto = await addCertificate(ctx, cook.cookie, { type: 'photo', id: publicPicture.json().id });
      expect(asPhoto.statusCode).toBe(404);
      const noDocs = (
        await send(ctx.app, 'GET', '/api/kitchen/documents', cook.cookie)
      ).json<KitchenDocuments>();
      expect(noDocs.documents).toEqual([]);
    });

    it('deletes a photo or PDF left unattached for a day, and keeps those attached', async () => {
      const ctx = get();
      const cook = await buildKitchen(ctx);
      const kept = (await upload(ctx, cook.cookie, PDF, 'application/pdf')).json<DocumentFileRef>();
      const keptPhoto = (
        await upload(ctx, cook.cookie, await makePhoneJpeg(), 'image/jpeg')
      ).json<DocumentFileRef>();
      const left = (await upload(ctx, cook.cookie, PDF, 'application/pdf')).json<DocumentFileRef>();
      expect((await addCertificate(ctx, cook.cookie, kept)).statusCode).toBe(201);
      expect((await addCertificate(ctx, cook.cookie, keptPhoto)).statusCode).toBe(201);
      const twoDaysOn = new FakeClock();
      twoDaysOn.advance(Date.now() + 2 * 86_400_000);
      await sweepAbandonedImages(ctx.app, twoDaysOn);
      expect((await send(ctx.app, 'GET', `/api/document-files/${kept.id}`, cook.cookie)).statusCode).toBe(
        200,
      );
      expect((await send(ctx.app, 'GET', `/api/document-files/${left.id}`, cook.cookie)).statusCode).toBe(
        404,
      );
      const listed = (
        await send(ctx.app, 'GET', '/api/kitchen/documents', cook.cookie)
      ).json<KitchenDocuments>();
      const photo = listed.documents.find((d) => d.file?.type === 'photo');
      expect((await send(ctx.app, 'GET', photo!.file!.url, cook.cookie)).statusCode).toBe(200);
    });

    it('attaches a photo, then a PDF in its place, to a certificate added without one: the same document, only its cook may; the queue shows the new file', async () => {
      const ctx = get();
      const cook = await californian(ctx);
      const added = (await addCertificate(ctx, cook.cookie)).json<KitchenDocument>();
      expect(added.file).toBeNull();
      const attach = (cookie: string | undefined, file: unknown, id = added.id) =>
        send(ctx.app, 'PUT', `/api/kitchen/documents/${id}/file`, cookie, { file });

      const photo = (
        await upload(ctx, cook.cookie, await makePhoneJpeg(), 'image/jpeg')
      ).json<DocumentFileRef>();
      const withPhoto = await attach(cook.cookie, photo);
      expect(withPhoto.statusCode).toBe(200);
      expect(withPhoto.json<KitchenDocument>()).toMatchObject({
        id: added.id,
        number: 'FSM-7731',
        expiresOn: '2030-12-31',
        file: { type: 'photo', url: expect.stringMatching(new RegExp(`^/images/${photo.id}-\\d+\\.webp$`)) },
      });

      // Replaced by a PDF: still one document, the same, now showing the PDF.
      const pdf = (await upload(ctx, cook.cookie, PDF, 'application/pdf')).json<DocumentFileRef>();
      const withPdf = await attach(cook.cookie, pdf);
      expect(withPdf.statusCode).toBe(200);
      const file = { type: 'pdf', url: `/api/document-files/${pdf.id}` };
      const listed = (
        await send(ctx.app, 'GET', '/api/kitchen/documents', cook.cookie)
      ).json<KitchenDocuments>();
      expect(listed.documents).toEqual([{ ...added, file }]);
      const ops = await operator(ctx);
      const view = (
        await send(ctx.app, 'GET', '/api/operator/moderation', ops.cookie)
      ).json<ModerationView>();
      expect(view.approvals.find((a) => a.uid === cook.kitchen.uid)?.documents).toEqual([
        { kind: 'food-safety-certificate', number: 'FSM-7731', holder: '', expiresOn: '2030-12-31', file },
      ]);

      // Another cook (with their own upload), a customer, anyone signed out and an operator may not.
      const other = await buildKitchen(ctx);
      const theirs = (await upload(ctx, other.cookie, PDF, 'application/pdf')).json<DocumentFileRef>();
      const byOther = await attach(other.cookie, theirs);
      expect(byOther.statusCode).toBe(404);
      const customer = await signedIn(ctx, 'customer');
      for (const cookie of [customer.cookie, undefined, ops.cookie])
        expect((await attach(cookie, pdf)).statusCode).toBe(401);
      // Another cook's upload, no file, a bad id: 4xx naming the field.
      const notMine = await attach(cook.cookie, theirs);
      expect(notMine.statusCode).toBe(404);
      expect(notMine.json()).toMatchObject({ field: 'file' });
      const noFile = await send(ctx.app, 'PUT', `/api/kitchen/documents/${added.id}/file`, cook.cookie, {});
      expect(noFile.statusCode).toBe(400);
      expect(noFile.json()).toMatchObject({ field: 'file' });
      const badId = await attach(cook.cookie, pdf, 'not-an-id');
      expect(badId.statusCode).toBe(400);
      expect(badId.json()).toMatchObject({ field: 'id' });
      const after = (
        await send(ctx.app, 'GET', '/api/kitchen/documents', cook.cookie)
      ).json<KitchenDocuments>();
      expect(after.documents).toEqual([{ ...added, file }]);
    });
  },
  { ...operatorEnv, GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
);
