import { and, eq, isNotNull } from 'drizzle-orm';
import { DELETED_CUSTOMER_EMAIL, ORDERS_IN_PROGRESS, REMOVED_ADDRESS } from '../../shared/account.js';
import { images, kitchens, notificationOutbox, orders, reviews, sessions, users } from '../db/schema.js';
import { deleteMessagesOf } from '../data/chat-removals.js';
import { forgetCustomerFigures } from '../data/order-figures.js';
import type { ImagesApp } from '../pictures/image-service.js';
import { HttpError } from '../lib/errors.js';
import type { Values } from '../../shared/i18n/messages.js';
import { mutate } from '../events/mutate.js';
import { inProgressOrders, kitchenSees } from '../data/order-queries.js';
import { msg } from '../../shared/i18n/translator.js';

const refused = (message: string, values?: Values) =>
  new HttpError(409, ORDERS_IN_PROGRESS, message, undefined, undefined, values);

/**
 * 'Delete my account', in one transaction: the user's sessions (every role), chat messages, reviews, kitchen with
 * its menu and portions, uploaded pictures, allergies ('Your allergies', by its foreign key) and user row go. Orders
 * stay: those they placed lose the customer's email, address and the allergies they showed the cook ('Deleted customer', 'Removed'; customer_id is set null by its foreign key), those their
 * kitchen received stay in the customers' histories (kitchen_id set null, kitchen_name kept). Refused (409) while
 * an order they placed, or one their kitchen received, is in progress. Every deleted session's live streams end,
 * and every list that showed them is announced. Returns false when the user is already gone.
 */
export async function deleteAccount(app: ImagesApp, userId: string): Promise<boolean> {
  const { deleted, pictures } = await mutate(app, async (tx, record) => {
    // The user's and the kitchen's rows locked first: an order placed meanwhile waits on them (its insert holds the
    // kitchen's row, and its foreign keys the customer's) and then finds them gone ('This kitchen does not exist',
    // as for any vanished kitchen), so the checks below see every order that will ever exist.
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    if (!user) return { deleted: false, pictures: [] };
    const [kitchen] = await tx
      .select({ uid: kitchens.ownerId })
      .from(kitchens)
      .where(eq(kitchens.ownerId, userId))
      .for('update');

    const [placedOpen] = await tx
      .select({ kitchenName: orders.kitchenName })
      .from(orders)
      .where(and(eq(orders.customerId, userId), inProgressOrders))
      .limit(1);
    if (placedOpen)
      throw refused(
        msg(
          'Your order from {kitchen} is still in progress: you can delete your account once it has ended (delivered, declined or cancelled).',
        ),
        { kitchen: placedOpen.kitchenName },
      );
    if (kitchen) {
      const received = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.kitchenId, kitchen.uid), kitchenSees, inProgressOrders));
      if (received.length > 0)
        throw refused(
          received.length === 1
            ? msg(
                'Your kitchen has 1 order in progress: you can delete your account once it has ended (delivered, declined or cancelled) or you have taken it off your list.',
              )
            : // translators: {count} is 2 or more
              msg(
                'Your kitchen has {count} orders in progress: you can delete your account once they have ended (delivered, declined or cancelled) or you have taken them off your list.',
              ),
          { count: received.length },
        );
    }

    // Whose lists show this user's orders: the kitchens they ordered from, the customers of their kitchen.
    const kitchensOrderedFrom = await tx
      .selectDistinct({ uid: orders.kitchenId })
      .from(orders)
      .where(and(eq(orders.customerId, userId), isNotNull(orders.kitchenId)));
    const customersServed = kitchen
      ? await tx
          .selectDistinct({ id: orders.customerId })
          .from(orders)
          .where(and(eq(orders.kitchenId, kitchen.uid), isNotNull(orders.customerId)))
      : [];

    await tx
      .update(orders)
      .set({ customerEmail: DELETED_CUSTOMER_EMAIL, address: REMOVED_ADDRESS, customerAllergies: [] })
      .where(eq(orders.customerId, userId));
    const endedSessions = await tx
      .delete(sessions)
      .where(eq(sessions.userId, userId))
      .returning({ hash: sessions.tokenHash });
    const messages = await deleteMessagesOf(tx, userId);
    const reviewed = await tx
      .delete(reviews)
      .where(eq(reviews.customerId, userId))
      .returning({ kitchenUid: reviews.kitchenId });
    // The kitchen takes its menu (and the dishes' portions) and the reviews of it along (foreign keys cascade);
    // its orders keep their kitchen_name with kitchen_id set null.
    if (kitchen) await tx.delete(kitchens).where(eq(kitchens.ownerId, userId));
    const pictures = await tx.delete(images).where(eq(images.ownerId, userId)).returning({ id: images.id });
    // What they were to be told, or were told, goes with them (the outbox has no foreign key: see its schema).
    await tx.delete(notificationOutbox).where(eq(notificationOutbox.recipientId, userId));
    await forgetCustomerFigures(tx, userId);
    await tx.delete(users).where(eq(users.id, userId));

    for (const { hash } of endedSessions) record({ type: 'session.ended', sessionHash: hash });
    record({
      type: 'account.deleted',
      userId,
      kitchenUid: kitchen?.uid ?? null,
      kitchensOrderedFrom: kitchensOrderedFrom.flatMap(({ uid }) => (uid === null ? [] : [uid])),
      customersServed: customersServed.flatMap(({ id }) => (id === null ? [] : [id])),
      kitchensReviewed: [...new Set(reviewed.map((r) => r.kitchenUid))],
      chatMessagesRemoved: messages,
    });
    return { deleted: true, pictures: pictures.map((p) => p.id) };
  });
  // The pictures' bytes, once the rows are gone for good (the database store has dropped them with the rows).
  await app.imageStore.remove(pictures);
  return deleted;
}
