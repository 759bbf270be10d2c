import type { FastifyInstance } from 'fastify';
import type { Clock } from '../lib/clock.js';
import { registerPeriodicTask } from '../lib/periodic.js';
import { deleteAbandonedDocumentPdfs } from '../pictures/document-pdfs.js';
import { deleteAbandonedImages } from '../pictures/image-queries.js';

/** How long an uploaded picture may wait to be attached (a cook filling in a form) before it is deleted. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Deletes pictures uploaded more than a day ago (by `clock`) that no kitchen or dish uses; returns their ids. */
export async function sweepAbandonedImages(app: Pick<FastifyInstance, 'db' | 'imageStore'>, clock: Clock) {
  const before = new Date(clock.now() - ABANDONED_AFTER_MS);
  const gone = await deleteAbandonedImages(app.db, before);
  await app.imageStore.remove(gone);
  // PDFs of a cook's papers, uploaded and never attached, go the same way.
  await deleteAbandonedDocumentPdfs(app.db, before);
  return gone;
}

/** Sweeps when the server starts and every hour after; several instances sweeping at once do no harm. */
export function registerImageSweep(app: FastifyInstance, clock: Clock): void {
  registerPeriodicTask(app, {
    everyMs: SWEEP_EVERY_MS,
    atStart: true,
    // A picture attached while the sweep ran is kept by its foreign key; the next sweep tries again.
    failure: 'could not delete abandoned pictures',
    run: async () => {
      const gone = await sweepAbandonedImages(app, clock);
      if (gone.length > 0) app.log.info({ count: gone.length }, 'abandoned pictures deleted');
    },
  });
}
