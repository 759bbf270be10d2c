import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { ALWAYS_EMAILED, type PushPayload } from '../../shared/notifications.js';
import { notificationOutbox, notificationSettings, pushSubscriptions, users } from '../db/schema.js';
import { registerPeriodicTask } from '../lib/periodic.js';
import type { PushOutcome, RenderedNotice } from './channels.js';
import { unsubscribeUrl } from './mail/unsubscribe.js';
import { renderNotice } from './render.js';
import { isLocale } from '../../shared/i18n/locales.js';

type OutboxRow = typeof notificationOutbox.$inferSelect;
/** `jurisdictions`: the rules of places, for notices that depend on them (a helper's card due N days after). */
type WorkerApp = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'log' | 'notices' | 'i18n' | 'payments'> &
  Partial<Pick<FastifyInstance, 'jurisdictions'>>;

/** Reports about a kitchen wait this long after the first, so that a flood makes one digest. */
export const DIGEST_WAIT_MS = 10 * 60_000;
/** After this many attempts (about a day of backoff) a notice is given up, and the log says so. */
export const MAX_ATTEMPTS = 14;
const BATCH = 20;
/**
 * Sent notices are kept this long after their last channel was done (the record of what was told, for a person who
 * asks what they were sent and when), then swept; so are given-up ones, marked done when given up.
 */
export const SENT_NOTICE_RETENTION_MS = 30 * 24 * 3600_000;
/** The worker's rounds sweep sent notices at most this often (by the app's clock). */
export const SWEEP_EVERY_MS = 3600_000;

/** The wait before attempt `attempts + 1`: 15 s, 30 s, 1 min, … at most an hour. */
export const backoffMs = (attempts: number) => Math.min(15_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

/**
 * Takes up to `batch` notices that are due and not done, for this worker alone: each is leased (its next attempt
 * moved past the lease) under a claim of its own (`claimToken`) in the statement that picks it, skipping rows
 * another worker holds, so that several instances never work on the same notice at once; a worker that dies leaves
 * its lease to run out. The lease is renewed before each send (`renewLease`), while the claim is still this
 * worker's: a round longer than a lease (a slow relay) loses only the notices it had not begun, to another worker.
 */
export async function claimNotices(app: WorkerApp, now: Date, batch: number): Promise<OutboxRow[]> {
  const due = app.db
    .select({ id: notificationOutbox.id })
    .from(notificationOutbox)
    .where(
      and(
        or(isNull(notificationOutbox.emailDoneAt), isNull(notificationOutbox.pushDoneAt)),
        lte(notificationOutbox.nextAttemptAt, now),
      ),
    )
    .orderBy(asc(notificationOutbox.nextAttemptAt))
    .limit(batch)
    .for('update', { skipLocked: true });
  return app.db
    .update(notificationOutbox)
    .set({
      // Leased: a worker that dies mid-send leaves it to the next once this has passed (NOTIFY_LEASE_SECONDS).
      nextAttemptAt: new Date(now.getTime() + app.config.notifications.leaseMs),
      attempts: sql`${notificationOutbox.attempts} + 1`,
      claimToken: randomUUID(),
    })
    .where(inArray(notificationOutbox.id, due))
    .returning();
}

/** Another worker claimed the notice once this one's lease ran out: this one stops, sends and marks nothing more. */
class ClaimLost extends Error {
  constructor(key: string) {
    super(`the claim on ${key} ran out and another worker took it`);
  }
}

/** The claimed row's own claim (the statement that claims sets one). */
const claimOf = (row: OutboxRow): string => {
  if (!row.claimToken) throw new Error(`notice ${row.key} has no claim`);
  return row.claimToken;
};

/** The row, as long as `row`'s claim still holds it. */
const heldBy = (row: OutboxRow): SQL | undefined =>
  and(eq(notificationOutbox.id, row.id), eq(notificationOutbox.claimToken, claimOf(row)));

/**
 * Just before a send: the notice's lease runs a whole lease from now, if the claim is still this worker's (throws
 * ClaimLost if not). Each send (one mail, one push) thus has a lease to finish in, however long the round has been:
 * NOTIFY_LEASE_SECONDS must outlast one send (SMTP's and push's timeouts are 10 s each).
 */
async function renewLease(app: WorkerApp, row: OutboxRow): Promise<void> {
  const held = await app.db
    .update(notificationOutbox)
    .set({ nextAttemptAt: new Date(app.clock.now() + app.config.notifications.leaseMs) })
    .where(heldBy(row))
    .returning({ id: notificationOutbox.id });
  if (held.length === 0) throw new ClaimLost(row.key);
}

/** The recipient's email setting for the notice's kind (no row: on). */
async function emailWanted(app: WorkerApp, row: OutboxRow, devices: number): Promise<boolean> {
  // A cook with no device to be pushed to is emailed of a new order whatever the setting says.
  if (row.kind === 'order-new' && devices === 0) return true;
  // A notice the law asks for is sent whatever a row says.
  if (ALWAYS_EMAILED.includes(row.kind)) return true;
  const [setting] = await app.db
    .select({ email: notificationSettings.email })
    .from(notificationSettings)
    .where(and(eq(notificationSettings.userId, row.recipientId), eq(notificationSettings.kind, row.kind)));
  return setting?.email ?? true;
}

const firstParagraph = (text: string) =>
  text
    .split(/\n\s*\n/)[0]
    ?.replace(/\s+/g, ' ')
    .trim() ?? '';

/**
 * Sends one claimed notice: its email (unless turned off, or no mailer), then a push to each of the recipient's
 * devices (a device the push service says is gone, or whose endpoint leads into our network, is removed), each
 * channel marked done once it is, and each device once it is reached; the next attempt resumes at the channel not
 * done, and pushes only to the devices not reached. A digest of reports takes every other pending report notice of
 * its recipient with it. Stops (ClaimLost) as soon as another worker has taken the notice over.
 */
async function deliver(app: WorkerApp, claimed: OutboxRow, now: Date): Promise<void> {
  // As it is now: a digest sent for an earlier row of this batch has done this one too, or another worker claimed it
  // once the lease of this batch ran out.
  const [row] = await app.db.select().from(notificationOutbox).where(eq(notificationOutbox.id, claimed.id));
  if (!row || (row.emailDoneAt !== null && row.pushDoneAt !== null)) return;
  if (row.claimToken !== claimed.claimToken) return;
  const [recipient] = await app.db.select().from(users).where(eq(users.id, row.recipientId));
  // In the language they chose (English until they choose one).
  const tr = app.i18n.translator(isLocale(recipient?.locale) ? recipient.locale : 'en');
  const rendered =
    recipient &&
    (await renderNotice(
      app.db,
      { kind: row.kind, subjectId: row.subjectId, recipientId: row.recipientId },
      app.config.publicUrl,
      now,
      tr,
      { jurisdictions: app.jurisdictions, provider: app.payments.provider },
    ));
  const digest =
    row.kind === 'reports'
      ? and(
          eq(notificationOutbox.recipientId, row.recipientId),
          eq(notificationOutbox.kind, 'reports'),
          or(isNull(notificationOutbox.emailDoneAt), isNull(notificationOutbox.pushDoneAt)),
        )
      : undefined;
  /** Marks the notice (while this claim holds it), and the other reports of its digest with it. */
  const mark = async (set: PgUpdateSetSource<typeof notificationOutbox>) => {
    const marked = await app.db
      .update(notificationOutbox)
      .set(set)
      .where(heldBy(row))
      .returning({ id: notificationOutbox.id });
    if (marked.length === 0) throw new ClaimLost(row.key);
    if (digest)
      await app.db
        .update(notificationOutbox)
        .set(set)
        .where(and(digest, ne(notificationOutbox.id, row.id)));
  };
  if (!recipient) {
    // Their account was deleted meanwhile: nothing of them is kept.
    await app.db.delete(notificationOutbox).where(eq(notificationOutbox.recipientId, row.recipientId));
    return;
  }
  if (!rendered) {
    // What it was about is gone (an order deleted with its kitchen): nothing to tell.
    await mark({ emailDoneAt: now, pushDoneAt: now, lastError: 'nothing to tell any more' });
    return;
  }
  const devices = await app.db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, row.recipientId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
  if (row.emailDoneAt === null) {
    const { mailer } = app.notices;
    if (mailer && (await emailWanted(app, row, devices.length))) {
      await renewLease(app, row);
      await mailer.send({
        to: recipient.email,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        messageId: `<${row.key}@homecooked>`,
        unsubscribeUrl: unsubscribeUrl(app as FastifyInstance, row.recipientId, row.kind),
        unsubscribeLabel: tr.t('Turn off these emails'),
      });
    }
    await mark({ emailDoneAt: now });
  }
  if (row.pushDoneAt === null) {
    const { pusher } = app.notices;
    // Each device on its own: one that fails holds up none of the others, and is the only one tried again.
    const failures: string[] = [];
    if (pusher && devices.length > 0) {
      const payload = pushPayloadOf(rendered, row);
      for (const device of devices) {
        if (row.pushedTo.includes(device.id)) continue;
        await renewLease(app, row);
        let outcome: PushOutcome;
        try {
          outcome = await pusher.send(device, payload);
        } catch (error) {
          failures.push(`device ${device.id}: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        if (outcome === 'refused')
          app.log.warn(
            { device: device.id, user: row.recipientId },
            "a push device's endpoint leads into the server's own network: removed",
          );
        if (outcome !== 'sent')
          await app.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
        else
          await mark({
            pushedTo: sql`array_append(${notificationOutbox.pushedTo}, ${device.id}::uuid)`,
          });
      }
    }
    if (failures.length > 0)
      throw new Error(
        `a push failed on ${failures.length} of ${devices.length} devices: ${failures.join('; ')}`,
      );
    await mark({ pushDoneAt: now });
  }
}

const pushPayloadOf = (rendered: RenderedNotice, row: OutboxRow): PushPayload => ({
  title: rendered.subject,
  body: firstParagraph(rendered.text),
  url: rendered.path,
  tag: `${row.kind}:${row.subjectId}`,
});

/**
 * One round of the worker: claims the notices due, and sends each; one that fails waits (backoff) and is tried
 * again, from the channel it had not done; after MAX_ATTEMPTS it is given up. A kitchen's reports wait
 * DIGEST_WAIT_MS after the first, then go as one. Returns how many notices it claimed.
 */
export async function runNoticesOnce(app: WorkerApp, batch = BATCH): Promise<number> {
  const now = new Date(app.clock.now());
  const claimed = await claimNotices(app, now, batch);
  for (const row of claimed) {
    if (row.kind === 'reports' && row.createdAt.getTime() > now.getTime() - DIGEST_WAIT_MS) {
      await app.db
        .update(notificationOutbox)
        .set({
          nextAttemptAt: new Date(row.createdAt.getTime() + DIGEST_WAIT_MS),
          attempts: sql`${notificationOutbox.attempts} - 1`,
        })
        .where(heldBy(row));
      continue;
    }
    try {
      await deliver(app, row, now);
    } catch (error) {
      if (error instanceof ClaimLost) {
        // Its lease ran out in a long round, and another worker has it now: theirs to send, retry or give up.
        app.log.info({ notice: row.key }, 'a notification was taken over by another worker');
        continue;
      }
      const givingUp = row.attempts >= MAX_ATTEMPTS;
      const message = error instanceof Error ? error.message : String(error);
      if (givingUp)
        app.log.error({ err: error, notice: row.key }, 'a notification could not be sent: given up');
      else
        app.log.warn(
          { err: error, notice: row.key, attempt: row.attempts },
          'a notification failed; retried',
        );
      await app.db
        .update(notificationOutbox)
        .set(
          givingUp
            ? { emailDoneAt: now, pushDoneAt: now, lastError: `given up: ${message}`.slice(0, 500) }
            : {
                nextAttemptAt: new Date(now.getTime() + backoffMs(row.attempts)),
                lastError: message.slice(0, 500),
              },
        )
        .where(heldBy(row));
    }
  }
  return claimed.length;
}

/** Runs rounds until nothing is due (a round that claimed a full batch may have left more). */
export async function drainNotices(app: WorkerApp): Promise<void> {
  while ((await runNoticesOnce(app)) === BATCH);
}

/** Deletes the notices whose every channel was done more than SENT_NOTICE_RETENTION_MS before `now`. */
export async function deleteSentNotices(app: Pick<WorkerApp, 'db'>, now: number): Promise<number> {
  const before = new Date(now - SENT_NOTICE_RETENTION_MS);
  const gone = await app.db
    .delete(notificationOutbox)
    .where(and(lt(notificationOutbox.emailDoneAt, before), lt(notificationOutbox.pushDoneAt, before)))
    .returning({ id: notificationOutbox.id });
  return gone.length;
}

/**
 * The sweep of sent notices the worker's round runs: at once, then at most every SWEEP_EVERY_MS of the app's clock
 * (a round runs every few seconds, the sweep scans the table). Every instance sweeps; the delete is idempotent.
 */
export function sentNoticeSweeper(app: WorkerApp): () => Promise<void> {
  let last: number | undefined;
  return async () => {
    const now = app.clock.now();
    if (last !== undefined && now - last < SWEEP_EVERY_MS) return;
    last = now;
    const count = await deleteSentNotices(app, now);
    if (count > 0) app.log.info({ count }, 'sent notifications past their retention deleted');
  };
}

/**
 * The worker of this instance: a round every NOTIFY_POLL_SECONDS, and one as soon as any instance enqueues notices
 * (the change bus says so); rounds never overlap on an instance, and instances share the work through the leases.
 * A round ends with the sweep of sent notices past their retention (at most once an hour).
 */
export function registerNoticeWorker(app: FastifyInstance): void {
  const seconds = app.config.notifications.pollSeconds;
  if (seconds === 0 || !app.config.notifications.enabled) return;
  let running: Promise<void> | undefined;
  let again = false;
  const sweep = sentNoticeSweeper(app);
  const round = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = drainNotices(app)
      .then(sweep)
      .catch((error: unknown) =>
        app.log.warn({ err: error }, 'the notification worker failed; it runs again'),
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void round();
        }
      });
    return running;
  };
  app.bus.on('notices-queued', () => void round());
  registerPeriodicTask(app, {
    everyMs: seconds * 1000,
    atStart: true,
    failure: 'the notification worker failed; it runs again',
    run: round,
  });
  // A stop waits for the round under way (its sends are marked done, or left to the lease).
  app.addHook('onClose', async () => running);
}
