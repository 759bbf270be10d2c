import { asc, eq } from 'drizzle-orm';
import {
  NOTICE_AUDIENCE,
  NOTICE_KINDS,
  NOTICE_LABELS,
  type EmailSetting,
  type NoticeKind,
  type PushDevice,
  ALWAYS_EMAILED,
} from '../../../shared/notifications.js';
import { isPaused } from '../../../shared/opening-hours.js';
import type { DbOrTx } from '../../db/database.js';
import { kitchens, notificationSettings, pushSubscriptions } from '../../db/schema.js';

/** Whose notices a settings page is about: the cook's (a kitchen session) or the customer's. */
export type Audience = 'kitchen' | 'customer';

/** The kinds a person of `audience` is told of, in NOTICE_KINDS's order. */
export const kindsOf = (audience: Audience): NoticeKind[] =>
  NOTICE_KINDS.filter((kind) => NOTICE_AUDIENCE[kind] === audience);

/** The person's push devices, oldest first. */
export async function findDevices(db: DbOrTx, userId: string): Promise<PushDevice[]> {
  const rows = await db
    .select({
      id: pushSubscriptions.id,
      name: pushSubscriptions.name,
      createdAt: pushSubscriptions.createdAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** The person's email settings that say something (no row: on). */
async function findEmailRows(db: DbOrTx, userId: string): Promise<Map<NoticeKind, boolean>> {
  const rows = await db
    .select({ kind: notificationSettings.kind, email: notificationSettings.email })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));
  return new Map(rows.map((row) => [row.kind, row.email]));
}

/**
 * Whether the cook's kitchen takes orders at `now`: it exists, is not suspended, and is not paused (or its pause
 * ended). A cook without a kitchen yet takes none.
 */
export async function kitchenTakesOrders(db: DbOrTx, ownerId: string, now: Date): Promise<boolean> {
  const [kitchen] = await db
    .select({
      pausedAt: kitchens.pausedAt,
      pausedUntil: kitchens.pausedUntil,
      suspendedAt: kitchens.suspendedAt,
    })
    .from(kitchens)
    .where(eq(kitchens.ownerId, ownerId));
  if (!kitchen || kitchen.suspendedAt !== null) return false;
  return !isPaused(
    {
      pausedAt: kitchen.pausedAt?.toISOString() ?? null,
      pausedUntil: kitchen.pausedUntil?.toISOString() ?? null,
    },
    now,
  );
}

/**
 * A person's email settings and push devices, for `audience`'s kinds. The cook's new-order email is locked (and on,
 * as the worker sends it whatever a row says) while their kitchen takes orders and no device of theirs is pushed to.
 */
export async function readSettings(
  db: DbOrTx,
  userId: string,
  audience: Audience,
  now: Date,
): Promise<{ email: EmailSetting[]; devices: PushDevice[] }> {
  // One after the other: `db` may be a transaction (one connection).
  const rows = await findEmailRows(db, userId);
  const devices = await findDevices(db, userId);
  const takesOrders = audience === 'kitchen' && (await kitchenTakesOrders(db, userId, now));
  const newOrdersLocked = takesOrders && devices.length === 0;
  const email = kindsOf(audience).map((kind): EmailSetting => {
    const locked = ALWAYS_EMAILED.includes(kind) || (kind === 'order-new' && newOrdersLocked);
    return { kind, label: NOTICE_LABELS[kind], email: locked || (rows.get(kind) ?? true), locked };
  });
  return { email, devices };
}

/** Sets the person's email setting for `kind` (a row either way: on or off). */
export async function saveEmailSetting(
  db: DbOrTx,
  userId: string,
  kind: NoticeKind,
  email: boolean,
): Promise<void> {
  await db
    .insert(notificationSettings)
    .values({ userId, kind, email })
    .onConflictDoUpdate({
      target: [notificationSettings.userId, notificationSettings.kind],
      set: { email },
    });
}
