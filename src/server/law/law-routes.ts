import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  capsInCurrency,
  hasCaps,
  KitchenBooking,
  KitchenRules,
  type Profile,
} from '../../shared/jurisdictions.js';
import { KitchenParams } from '../../shared/kitchens.js';
import { KITCHEN_UNAVAILABLE } from '../../shared/moderation.js';
import { localTime } from '../../shared/opening-hours.js';
import { kitchenPlace } from '../data/kitchen-place.js';
import { kitchenProfile } from '../data/rule-overrides.js';
import { setListing } from '../data/kitchen-queries.js';
import { mealCounts } from '../data/meal-counts.js';
import { noKitchen, requireKitchen } from '../data/require-kitchen.js';
import { conflict, notFound } from '../lib/errors.js';
import { empty } from '../lib/route-doc.js';
import {
  DocumentFileInput,
  DocumentParams,
  HelperInput,
  HelperParams,
  KitchenHelper,
  KitchenDocument,
  KitchenDocumentInput,
  KitchenDocuments,
} from '../../shared/kitchen-documents.js';
import {
  documentFile,
  helperCardRule,
  listDocuments,
  listHelpers,
  papersPause,
  permitNumber,
  requiredDocuments,
} from '../data/kitchen-documents.js';
import { findImage } from '../pictures/image-queries.js';
import { and, eq } from 'drizzle-orm';
import { kitchenDocuments, kitchenHelpers } from '../db/schema.js';
import { mutate } from '../events/mutate.js';
import { claimDocumentFile } from '../pictures/document-pdfs.js';

/** The profile's caps as counted in this deployment (a gross cap in another currency is not counted). */
const capsOf = (app: FastifyInstance, profile: Profile) =>
  capsInCurrency(profile.rules.caps, app.payments.config.currency);

/**
 * 'Rules for your kitchen': which jurisdiction's rules apply to the cook's kitchen and why (its address's parts, the
 * levels matched with their sources), with what its orders counted so far; and the public 'Fully booked today'.
 */
export const lawRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchen/rules',
    {
      config: {
        doc: {
          summary:
            "The rules of the cook's place that apply to their kitchen, why (its address, the sources), and its meals and sales counted against the caps",
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet' },
        },
      },
      schema: { response: { 200: KitchenRules } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      const where = await kitchenPlace(app.db, kitchen.uid);
      if (!where) throw noKitchen();
      const { profile, overrides } = await kitchenProfile(
        app.db,
        app.jurisdictions,
        app.payments.config.currency,
        kitchen.uid,
        where.place,
      );
      const capped = hasCaps(capsOf(app, profile));
      const today = localTime(new Date(app.clock.now()), where.timeZone).date;
      reply.header('cache-control', 'no-store');
      return {
        profile,
        overrides,
        listing: where.listing,
        place: where.place,
        counted: capped ? await mealCounts(app.db, kitchen.uid, today) : null,
      };
    },
  );

  app.get(
    '/api/kitchens/:uid/booking',
    {
      config: {
        doc: {
          summary:
            "Whether a kitchen's meals for today are all sold under its place's caps ('Fully booked today'), and how many are left",
          errors: { 404: 'No such kitchen, or it is suspended' },
        },
      },
      schema: { params: KitchenParams, response: { 200: KitchenBooking } },
    },
    async (request, reply) => {
      const where = await kitchenPlace(app.db, request.params.uid);
      if (!where) throw notFound('No kitchen with this id');
      if (where.suspended) throw notFound(KITCHEN_UNAVAILABLE);
      reply.header('cache-control', 'no-store');
      const { profile } = await kitchenProfile(
        app.db,
        app.jurisdictions,
        app.payments.config.currency,
        request.params.uid,
        where.place,
      );
      const caps = capsOf(app, profile);
      const permit = profile.rules.permit?.showOnMenu ? await permitNumber(app.db, request.params.uid) : null;
      if (!hasCaps(caps))
        return { capped: false, fullyBookedToday: false, mealsLeftToday: null, permitNumber: permit };
      const today = localTime(new Date(app.clock.now()), where.timeZone).date;
      const counted = await mealCounts(app.db, request.params.uid, today);
      const left = Math.min(
        caps.mealsPerDay === null ? Infinity : caps.mealsPerDay - counted.today,
        caps.mealsPerWeek === null ? Infinity : caps.mealsPerWeek - counted.thisWeek,
      );
      const mealsLeftToday = Number.isFinite(left) ? Math.max(0, left) : null;
      return { capped: true, fullyBookedToday: mealsLeftToday === 0, mealsLeftToday, permitNumber: permit };
    },
  );

  app.get(
    '/api/kitchen/documents',
    {
      config: {
        doc: {
          summary:
            "The cook's permit and certificates with their expiry dates, which ones the kitchen's rules require, and whether it is paused for one",
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet' },
        },
      },
      schema: { response: { 200: KitchenDocuments } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      reply.header('cache-control', 'no-store');
      return documentsAnswer(app, kitchen.uid);
    },
  );

  app.post(
    '/api/kitchen/documents',
    {
      config: {
        doc: {
          summary:
            "Add a permit number, the food safety certificate or a helper's food handler card, with the day it expires (a renewal is added the same way)",
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet' },
        },
      },
      schema: { body: KitchenDocumentInput, response: { 201: KitchenDocument } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      const input = request.body;
      const added = await mutate(app, async (tx, record) => {
        if (input.file) await claimDocumentFile(tx, kitchen.uid, input.file);
        const [row] = await tx
          .insert(kitchenDocuments)
          .values({
            kitchenId: kitchen.uid,
            kind: input.kind,
            number: input.number,
            holder: input.kind === 'food-handler-card' ? input.holder : '',
            expiresOn: input.expiresOn,
            imageId: input.file?.type === 'photo' ? input.file.id : null,
            fileId: input.file?.type === 'pdf' ? input.file.id : null,
          })
          .returning();
        if (row) record({ type: 'document.added', kitchenUid: kitchen.uid, documentId: row.id });
        // The changes an operator asked for: the kitchen waits for their decision again.
        const back = { state: 'awaiting-approval', reason: '', decided: false } as const;
        if (row && (await setListing(tx, kitchen.uid, back, ['changes-asked'])))
          record({ type: 'kitchen.listing-changed', kitchenUid: kitchen.uid, listing: 'awaiting-approval' });
        return row;
      });
      if (!added) throw noKitchen();
      reply.code(201);
      return documentAnswer(app, added);
    },
  );

  app.put(
    '/api/kitchen/documents/:id/file',
    {
      config: {
        doc: {
          summary:
            "Attach a photo or PDF (uploaded first to /api/kitchen/document-files) to one of the cook's documents added earlier, or replace the one it has; the document stays as it was",
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet, no such document of this kitchen, or no such upload of this cook' },
        },
      },
      schema: { params: DocumentParams, body: DocumentFileInput, response: { 200: KitchenDocument } },
    },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      const { file } = request.body;
      const updated = await mutate(app, async (tx, record) => {
        // The file first (the cook's own upload, held until the end); another kitchen's document is as unknown as none.
        await claimDocumentFile(tx, kitchen.uid, file);
        const [row] = await tx
          .update(kitchenDocuments)
          .set({
            imageId: file.type === 'photo' ? file.id : null,
            fileId: file.type === 'pdf' ? file.id : null,
          })
          .where(and(eq(kitchenDocuments.id, request.params.id), eq(kitchenDocuments.kitchenId, kitchen.uid)))
          .returning();
        if (!row) throw notFound('No such document');
        // The file it replaces is attached to nothing now: the sweep of abandoned uploads removes it after a day.
        record({ type: 'document.file-attached', kitchenUid: kitchen.uid, documentId: row.id });
        // Like a document added: a kitchen an operator asked for changes waits for their decision again.
        const back = { state: 'awaiting-approval', reason: '', decided: false } as const;
        if (await setListing(tx, kitchen.uid, back, ['changes-asked']))
          record({ type: 'kitchen.listing-changed', kitchenUid: kitchen.uid, listing: 'awaiting-approval' });
        return row;
      });
      return documentAnswer(app, updated);
    },
  );
  app.post(
    '/api/kitchen/helpers',
    {
      config: {
        doc: {
          summary:
            "Add someone who cooks with the cook, and the day they started: where the kitchen's rules ask helpers for a food handler card within N days, it is due N days after",
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet', 409: 'A helper by this name already' },
        },
      },
      schema: { body: HelperInput, response: { 201: KitchenHelper } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      const { name, startedOn } = request.body;
      const added = await mutate(app, async (tx, record) => {
        const [row] = await tx
          .insert(kitchenHelpers)
          .values({ kitchenId: kitchen.uid, name, startedOn })
          .onConflictDoNothing()
          .returning({ id: kitchenHelpers.id });
        if (row) record({ type: 'helper.changed', kitchenUid: kitchen.uid });
        return row;
      });
      if (!added) throw conflict('A helper by this name is already here', 'name');
      const where = await kitchenPlace(app.db, kitchen.uid);
      const rule = where ? helperCardRule(app.jurisdictions.forPlace(where.place).rules) : null;
      const helper = (await listHelpers(app.db, kitchen.uid, rule)).find((h) => h.id === added.id);
      if (!helper) throw notFound('No such helper');
      reply.code(201);
      return helper;
    },
  );

  app.delete(
    '/api/kitchen/helpers/:id',
    {
      config: {
        doc: {
          summary:
            'Remove a helper who no longer cooks with the cook (their card is then no longer asked for; their documents stay)',
          cookie: 'kitchen',
          responses: { 204: empty },
          errors: { 404: 'No kitchen yet, or no such helper of this kitchen' },
        },
      },
      schema: { params: HelperParams },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      const removed = await mutate(app, async (tx, record) => {
        const rows = await tx
          .delete(kitchenHelpers)
          .where(and(eq(kitchenHelpers.id, request.params.id), eq(kitchenHelpers.kitchenId, kitchen.uid)))
          .returning({ id: kitchenHelpers.id });
        if (rows.length) record({ type: 'helper.changed', kitchenUid: kitchen.uid });
        return rows.length > 0;
      });
      if (!removed) throw notFound('No such helper');
      return reply.code(204).send();
    },
  );
};

/** A document as its cook reads it, with its photo's or PDF's link. */
async function documentAnswer(
  app: FastifyInstance,
  row: typeof kitchenDocuments.$inferSelect,
): Promise<KitchenDocument> {
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    holder: row.holder,
    expiresOn: row.expiresOn,
    addedAt: row.createdAt.toISOString(),
    file: documentFile({
      ...row,
      widths: row.imageId ? ((await findImage(app.db, row.imageId))?.widths ?? null) : null,
    }),
  };
}

/** The cook's documents, the kinds required, and the pause a missing or expired one puts on taking orders. */
async function documentsAnswer(app: FastifyInstance, kitchenUid: string): Promise<KitchenDocuments> {
  const where = await kitchenPlace(app.db, kitchenUid);
  if (!where) throw noKitchen();
  const { rules } = app.jurisdictions.forPlace(where.place);
  const helperCard = helperCardRule(rules);
  const today = localTime(new Date(app.clock.now()), where.timeZone).date;
  const [documents, pause, helpers] = await Promise.all([
    listDocuments(app.db, kitchenUid),
    papersPause(app.db, kitchenUid, rules, today),
    listHelpers(app.db, kitchenUid, helperCard),
  ]);
  return { documents, required: requiredDocuments(rules), pause, helpers, helperCard };
}
