// The baseline of the order benchmark: a plain Fastify handler doing the same inserts as placing an order (one
// order row and its lines, in one transaction), on the same driver and pool size as the app (openDatabase), with
// everything else left out: no validation, no session or menu query (both read once at start into memory), no
// idempotency check, no live notice. What the real route adds on top of this is its own cost.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { computeTotals } from '../src/shared/money.js';
import { openDatabase } from '../src/server/db/database.js';
import { kitchens, menuItems, orderItems, orders, sessions, users } from '../src/server/db/schema.js';
import { eq } from 'drizzle-orm';

const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: process.env.DATA_DIR ?? '',
});
const { db } = database;
const customers = new Map(
  (
    await db
      .select({ hash: sessions.tokenHash, id: users.id, email: users.email })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.role, 'customer'))
  ).map((c) => [c.hash, c]),
);
const dishes = new Map((await db.select().from(menuItems)).map((d) => [d.id, d]));
const kitchenNames = new Map((await db.select().from(kitchens)).map((k) => [k.ownerId, k.name]));

interface Body {
  kitchenUid: string;
  itemIds: string[];
  address: string;
  idempotencyKey: string;
}

const app = Fastify({ logger: false });
app.post('/api/orders', async (request, reply) => {
  const body = request.body as Body;
  const token = /customer_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1] ?? '';
  const customer = customers.get(createHash('sha256').update(token).digest('base64url'));
  if (!customer) return reply.status(401).send({ code: 'UNAUTHENTICATED' });
  const lines = body.itemIds.map((id) => dishes.get(id)!);
  const order = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values({
        kitchenId: body.kitchenUid,
        kitchenName: kitchenNames.get(body.kitchenUid) ?? '',
        customerId: customer.id,
        customerEmail: customer.email,
        address: body.address,
        ...computeTotals(lines.map((l) => l.priceCents)),
        idempotencyKey: body.idempotencyKey,
      })
      .returning();
    await tx.insert(orderItems).values(
      lines.map((l, position) => ({
        orderId: row!.id,
        menuItemId: l.id,
        position,
        item: l.item,
        priceCents: l.priceCents,
      })),
    );
    return row;
  });
  return reply.status(201).send(order);
});
app.get('/readyz', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0)),
);
