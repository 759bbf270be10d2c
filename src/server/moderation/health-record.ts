import type { FastifyInstance } from 'fastify';
import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import { DOCUMENT_LABELS } from '../../shared/kitchen-documents.js';
import { formatMoney } from '../../shared/money.js';
import { REFERRAL_PERIOD_DAYS } from '../../shared/moderation.js';
import { listDocuments } from '../data/kitchen-documents.js';
import { kitchens, operatorActions, orderItems, orders, problemReports, reports } from '../db/schema.js';
import { HttpError } from '../lib/errors.js';
import { renderList } from '../lib/pdf-list.js';
import type { Run } from '../lib/pdf-text.js';
import { msg } from '../../shared/i18n/translator.js';
import { authorityOf } from './health-referrals.js';
import { periodStart } from './referral-queries.js';

type App = Pick<FastifyInstance, 'db' | 'clock' | 'jurisdictions' | 'i18n'>;

const day = (at: Date) => at.toISOString().slice(0, 10);
const minute = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const heading = (text: string): Run[] => [{ text, bold: true }];

/**
 * A kitchen's record for the local health authority, as an A4 PDF: the kitchen and the rules of its place (with the
 * authority that issues its permit), its permit and documents with their expiry dates, the food-safety complaints,
 * the orders of the last REFERRAL_PERIOD_DAYS (by the app's clock) and its referrals. Written in English, as the
 * complaints are (an inspector's file, whatever language the operator reads the site in). 404 for no such kitchen.
 */
export async function kitchenRecord(app: App, uid: string): Promise<Buffer> {
  const [kitchen] = await app.db.select().from(kitchens).where(eq(kitchens.ownerId, uid));
  if (!kitchen) throw new HttpError(404, 'NOT_FOUND', msg('No kitchen {id}'), 'uid', undefined, { id: uid });
  const now = new Date(app.clock.now());
  const since = periodStart(now.getTime());
  const tr = app.i18n.translator('en');
  const profile = app.jurisdictions.forPlace({
    countryCode: kitchen.countryCode,
    region: kitchen.region,
    county: kitchen.county,
  });
  const authority = authorityOf(profile);
  const [documents, complaints, placed, referrals] = await Promise.all([
    listDocuments(app.db, uid),
    app.db
      .select({ problem: problemReports, complaint: { reason: reports.reason, closedAt: reports.closedAt } })
      .from(problemReports)
      .innerJoin(orders, eq(orders.id, problemReports.orderId))
      .leftJoin(reports, eq(reports.id, problemReports.complaintId))
      .where(
        and(
          eq(orders.kitchenId, uid),
          eq(problemReports.reason, 'made_ill'),
          gte(problemReports.createdAt, since),
        ),
      )
      .orderBy(asc(problemReports.createdAt)),
    app.db
      .select()
      .from(orders)
      .where(and(eq(orders.kitchenId, uid), gte(orders.createdAt, since)))
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(1000),
    app.db
      .select()
      .from(operatorActions)
      .where(and(eq(operatorActions.action, 'refer_kitchen'), eq(operatorActions.targetId, uid)))
      .orderBy(asc(operatorActions.createdAt)),
  ]);
  const items = placed.length
    ? await app.db
        .select({ orderId: orderItems.orderId, item: orderItems.item })
        .from(orderItems)
        .where(
          inArray(
            orderItems.orderId,
            placed.map((o) => o.id),
          ),
        )
        .orderBy(asc(orderItems.position))
    : [];
  const dishesOf = (orderId: string) => {
    const counted = new Map<string, number>();
    for (const row of items.filter((i) => i.orderId === orderId))
      counted.set(row.item, (counted.get(row.item) ?? 0) + 1);
    return [...counted].map(([item, n]) => `${n} × ${item}`).join(', ');
  };

  const rows: Run[][] = [
    heading('Permit and documents'),
    ...(documents.length
      ? documents.map((d) => [
          {
            text: `${DOCUMENT_LABELS[d.kind]}: ${d.number}${d.holder ? ` (${d.holder})` : ''}, expires ${d.expiresOn}${d.expiresOn < day(now) ? ' (expired)' : ''}, added ${day(new Date(d.addedAt))}`,
          },
        ])
      : [[{ text: 'No permit or document added.' }]]),
    heading(`Food-safety complaints in the period (${complaints.length})`),
    ...(complaints.length
      ? complaints.map(({ problem, complaint }) => [
          { text: `${minute(problem.createdAt)}, order ${problem.orderId}: `, bold: true },
          { text: complaint?.reason ?? `A customer says the order made them ill. ${problem.details}` },
          { text: complaint?.closedAt ? ` (closed ${day(complaint.closedAt)})` : ' (open)' },
        ])
      : [[{ text: 'None.' }]]),
    heading(`Orders in the period (${placed.length})`),
    ...(placed.length
      ? placed.map((o) => [
          {
            text: `${minute(o.createdAt)}, order ${o.id}: ${o.state}, ${dishesOf(o.id) || 'no dishes'}, ${formatMoney(o.totalCents, o.currency, tr)}`,
          },
        ])
      : [[{ text: 'None.' }]]),
    heading(`Referrals to the health authority (${referrals.length})`),
    ...(referrals.length
      ? referrals.map((r) => [{ text: `${minute(r.createdAt)}, by ${r.operatorEmail}: ${r.note ?? ''}` }])
      : [[{ text: 'None yet.' }]]),
  ];
  return renderList(
    {
      title: `Record of ${kitchen.name}`,
      subtitle: [
        `Kitchen ${kitchen.ownerId}, run by ${kitchen.ownerName}, ${kitchen.address}`,
        `Place: ${[kitchen.county, kitchen.region, kitchen.countryCode].filter(Boolean).join(', ') || 'not placed by the geocoder'}; rules: ${profile.name} (profile ${profile.id}, version ${profile.version})`,
        authority
          ? `Health authority: ${authority}, issuer of the ${profile.rules.permit?.name ?? 'permit'}`
          : "Health authority: its place's rules name none",
        `Period: ${day(since)} to ${day(now)} (the last ${REFERRAL_PERIOD_DAYS} days); made ${minute(now)}`,
      ],
      rows,
    },
    tr,
  );
}
