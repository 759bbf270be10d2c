import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/chat.js';
import type { Kitchen } from '../../src/shared/kitchens.js';
import type { MenuItem } from '../../src/shared/menu.js';
import type { CustomerOrder, KitchenOrder } from '../../src/shared/orders.js';
import type { Review } from '../../src/shared/reviews.js';
import type { SessionState } from '../../src/shared/auth.js';
import type { DataExport } from '../../src/shared/account.js';
import type { StoredImage } from '../../src/shared/images.js';
import type { ModerationView } from '../../src/shared/moderation.js';
import type { Earnings } from '../../src/shared/payments.js';
import type { Insights, Overview } from '../../src/shared/insights.js';
import type { OrderConversation } from '../../src/shared/order-messages.js';
import {
  ALWAYS_EMAILED,
  NOTICE_AUDIENCE,
  NOTICE_KINDS,
  type NotificationSettings,
} from '../../src/shared/notifications.js';
import { makePicture } from '../../src/server/test/test-images.js';
import type { User } from '../../src/server/identity/users.js';
import { registeredRoutes } from '../../src/server/docs/openapi.js';
import { UNSUBSCRIBE_PATH, unsubscribeUrl } from '../../src/server/notifications/mail/unsubscribe.js';
import { openEventStream } from '../../src/server/test/event-stream.js';
import { fingerprintTables } from '../../src/server/test/fingerprint.js';
import { describeEachEngine, signedIn, type TestContext } from '../../src/server/test/test-app.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';
import { promoCodes } from '../../src/server/db/schema.js';

/**
 * The authorisation matrix: every API route and live stream against six actors. Each cell runs on a world of
 * its own (X and Y own a kitchen with one menu item; A has an open order at X, B one at Y; A said something
 * in the chat; O is an operator: an operator session of an email in OPERATOR_EMAILS, and nothing else). 'allow' must answer 2xx and change nothing that is not the actor's; 'refuse' must answer
 * 401/403/404 and change nothing at all. Every answer, allowed or refused, is searched for what the actor may
 * not see. docs/security.md shows this same table (checked at the end of this file).
 */

const ACTORS = ['anonymous', 'A', 'B', 'X', 'Y', 'O'] as const;
type Actor = (typeof ACTORS)[number];
type Party = Exclude<Actor, 'anonymous'>;
const ACTOR_LABELS: Record<Actor, string> = {
  anonymous: 'anonymous',
  A: 'customer A',
  B: 'customer B',
  X: 'kitchen owner X',
  Y: 'kitchen owner Y',
  O: 'operator O',
};

/** The email OPERATOR_EMAILS lists for this test: every world's operator O signs in with it. */
const OPERATOR_EMAIL = 'operator-o@example.test';

/** The private topics the tab's stream row asks for: each actor may read some, none or one of them. */
const TAB_TOPICS = ['/api/orders/mine', '/api/kitchen/orders', '/api/operator/moderation'];

const allow = 'allow';
const refuse = 'refuse';
type Cell = typeof allow | typeof refuse;

interface Signed {
  user: User;
  /** The Cookie header of this party's session (customer for A and B, kitchen for X and Y, operator for O). */
  cookie: string;
  token: string;
}

interface World {
  tag: string;
  parties: Record<Party, Signed>;
  kitchenX: Kitchen;
  kitchenY: Kitchen;
  itemX: MenuItem;
  itemY: MenuItem;
  orderA: CustomerOrder;
  orderB: CustomerOrder;
  messageA: ChatMessage;
  /** A's review of the order at X, for the rows that set it up. */
  reviewA?: Review;
  /** A photo X uploaded, for the rows that set it up. */
  photoX?: StoredImage;
  photoFile?: { bytes: Buffer; type: string };
  /** A PDF of a paper X uploaded, for the rows that set it up. */
  pdfX?: string;
  /** A helper X added, for the rows that set it up. */
  helperX?: string;
  /** A document X added (without a photo or PDF), for the rows that set it up. */
  documentX?: string;
  /** A's photo of a problem with its order at X, for the rows that set it up. */
  problemPhotoA?: StoredImage;
  /** What the moderation rows' set-ups make: a message of someone else, a review, a report. */
  otherMessage?: ChatMessage;
  reviewId?: string;
  reportId?: string;
  /** X's push device, for the rows that set it up. */
  deviceX?: string;
  /** The unsubscribe link of A's 'Your order on its way' emails (path and query), for the rows that set it up. */
  unsubscribeA?: string;
  /** A's weekly plan at X, for the rows that set it up. */
  planA?: string;
  /** X's own promotion code, for the rows that set it up. */
  codeX?: { id: string; code: string };
}

interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: Record<string, unknown>;
  /** A file's bytes as the body, with its content type (picture uploads). */
  file?: { bytes: Buffer; type: string };
}

interface Row {
  /** Method and path as in the route's definition. */
  route: string;
  /** What the request is aimed at, when it targets someone's resource. */
  target?: string;
  /** Opened as a server-sent event stream (accept: text/event-stream) rather than a plain request. */
  stream?: true;
  /** anonymous, customer A, customer B, kitchen owner X, kitchen owner Y, operator O. */
  cells: readonly [Cell, Cell, Cell, Cell, Cell, Cell];
  request: (w: World) => Request;
  /** Runs on the cell's fresh world before the request (and before the "before" fingerprint). */
  setUp?: (ctx: TestContext, w: World) => Promise<void>;
  /** For an allowed actor: what the answer (or a stream's first snapshot) must hold, and only that. */
  sees?: (data: unknown, w: World, actor: Party, ctx: TestContext) => void | Promise<void>;
  /** A business-rule refusal this route also gives (besides 401/403/404), changing nothing either. */
  refusedAlsoWith?: number;
  /** What an allowed actor may be shown here though it is another's (the order an operator's list names). */
  mayShow?: (w: World) => string[];
  /** Rows beyond the actor's own that an allowed call may change (an operator acts on others' things). */
  alsoChanges?: (w: World) => Partial<Record<Table, SQL>>;
}

// ---- what each actor must see in an allowed answer ----

function seesOwnSession(data: unknown, w: World, actor: Party) {
  const state = data as SessionState;
  const uid = w.parties[actor].user.id;
  const role = roleOf(actor);
  expect(state.kitchen?.uid ?? null).toBe(role === 'kitchen' ? uid : null);
  expect(state.customer?.uid ?? null).toBe(role === 'customer' ? uid : null);
  expect(state.operator?.uid ?? null).toBe(role === 'operator' ? uid : null);
}

function roleOf(actor: Party): 'customer' | 'kitchen' | 'operator' {
  return actor === 'X' || actor === 'Y' ? 'kitchen' : actor === 'O' ? 'operator' : 'customer';
}

function seesKitchensXY(data: unknown, w: World) {
  const uids = (data as Kitchen[]).map((k) => k.uid);
  expect(uids).toEqual(expect.arrayContaining([w.kitchenX.uid, w.kitchenY.uid]));
}

function seesMenuOfX(data: unknown, w: World) {
  const menu = data as MenuItem[];
  expect(menu.map((m) => m.id)).toEqual([w.itemX.id]);
  expect(menu.every((m) => m.kitchenUid === w.kitchenX.uid)).toBe(true);
}

function seesOwnKitchen(data: unknown, w: World, actor: Party) {
  expect((data as Kitchen).uid).toBe(actor === 'X' ? w.kitchenX.uid : w.kitchenY.uid);
}

/** A kitchen's open orders: X sees exactly A's order, Y exactly B's. */
function seesOwnKitchenOrders(data: unknown, w: World, actor: Party) {
  expect((data as KitchenOrder[]).map((o) => o.id)).toEqual([actor === 'X' ? w.orderA.id : w.orderB.id]);
}

/** A customer's open order: A sees A's, B sees B's. */
function seesOwnOpenOrder(data: unknown, w: World, actor: Party) {
  expect((data as CustomerOrder | null)?.id).toBe(actor === 'A' ? w.orderA.id : w.orderB.id);
}

/** A customer's orders ('Your orders'): A sees A's only, B sees B's. */
function seesOwnOrders(data: unknown, w: World, actor: Party) {
  expect((data as CustomerOrder[]).map((o) => o.id)).toEqual([actor === 'A' ? w.orderA.id : w.orderB.id]);
}

function seesChatWithA(data: unknown, w: World) {
  expect((data as ChatMessage[]).map((m) => m.id)).toContain(w.messageA.id);
}

/** After signing out of `role`, that session is gone and the other one (if any) is untouched. */
const signedOutOf =
  (role: 'customer' | 'kitchen' | 'operator') =>
  async (_data: unknown, w: World, actor: Party, ctx: TestContext) => {
    const res = await ctx.app.inject({ url: '/api/session', headers: { cookie: w.parties[actor].cookie } });
    const state = res.json<SessionState>();
    const ownRole = roleOf(actor);
    expect(state[ownRole]?.uid ?? null).toBe(ownRole === role ? null : w.parties[actor].user.id);
  };

const kitchenBody = (name: string) => ({
  name,
  category: 'Indian',
  address: '1 Kitchen Road',
  imageLink: 'https://img.example/k.png',
  hours: ALL_DAY_HOURS,
});
const itemBody = (item: string) => ({
  item,
  imageLink: 'https://img.example/i.png',
  price: '9.50',
  wait: '20 min',
  allergenAnswers: answersWith(),
});

/** X uploads a photo (not yet attached to anything). */
async function uploadPhotoX(ctx: TestContext, w: World) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/kitchen/images',
    headers: { cookie: w.parties.X.cookie, 'content-type': 'image/png' },
    payload: await makePicture('png', 64, 48),
  });
  expect(res.statusCode, res.body).toBe(201);
  w.photoX = res.json<StoredImage>();
}

/** A small PDF, as a cook's scan of a paper would be. */
const PAPER_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

/** X uploads a PDF of a paper (attached to nothing: private all the same). */
async function uploadPdfX(ctx: TestContext, w: World) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/kitchen/document-files',
    headers: { cookie: w.parties.X.cookie, 'content-type': 'application/pdf' },
    payload: PAPER_PDF,
  });
  expect(res.statusCode, res.body).toBe(201);
  w.pdfX = res.json<{ id: string }>().id;
}

/** X adds a helper. */
async function addHelperX(ctx: TestContext, w: World) {
  const res = await call(
    ctx,
    w.parties.X.cookie,
    {
      method: 'POST',
      url: '/api/kitchen/helpers',
      body: { name: `Helper ${w.tag}`.slice(0, 100), startedOn: '2026-11-01' },
    },
    201,
  );
  w.helperX = res.json<{ id: string }>().id;
}

/** X adds a certificate without a file, and uploads a PDF that may be attached to it. */
async function addDocumentX(ctx: TestContext, w: World) {
  await uploadPdfX(ctx, w);
  const res = await call(
    ctx,
    w.parties.X.cookie,
    {
      method: 'POST',
      url: '/api/kitchen/documents',
      body: { kind: 'food-safety-certificate', number: `C-${w.tag}`.slice(0, 60), expiresOn: '2030-01-31' },
    },
    201,
  );
  w.documentX = res.json<{ id: string }>().id;
}

/** X uploads a photo and makes it the kitchen's picture. */
async function attachPhotoX(ctx: TestContext, w: World) {
  await uploadPhotoX(ctx, w);
  await call(
    ctx,
    w.parties.X.cookie,
    { method: 'PATCH', url: '/api/kitchen', body: { imageId: w.photoX?.id } },
    200,
  );
}

/** X delivers A's order (accept, prepare, dispatch, deliver). */
async function deliverOrderA(ctx: TestContext, w: World) {
  for (const body of [
    { move: 'accept', readyInMinutes: 30 },
    { move: 'prepare' },
    { move: 'dispatch' },
    { move: 'deliver' },
  ])
    await call(
      ctx,
      w.parties.X.cookie,
      { method: 'POST', url: `/api/kitchen/orders/${w.orderA.id}/moves`, body },
      200,
    );
}

/**
 * X takes cards (payouts set up), and A's order at X is a card order, paid, captured and delivered: what a partial
 * refund needs. (A's cash order is closed first: one open order per customer.)
 */
async function cardOrderADelivered(ctx: TestContext, w: World) {
  const local = ctx.app.payments.local;
  if (!local) throw new Error('the matrix runs with PAYMENTS=local');
  const link = await call(
    ctx,
    w.parties.X.cookie,
    { method: 'POST', url: '/api/kitchen/payouts/onboarding', body: {} },
    200,
  );
  await local.completeOnboarding(
    /\/onboard\/(acct_[0-9a-f]+)/.exec(link.json<{ url: string }>().url)?.[1] ?? '',
  );
  await local.settled();
  await call(ctx, w.parties.X.cookie, { method: 'POST', url: '/api/kitchen/payouts/refresh', body: {} }, 200);
  await call(ctx, w.parties.X.cookie, { method: 'DELETE', url: `/api/kitchen/orders/${w.orderA.id}` }, 204);
  const placed = await call(
    ctx,
    w.parties.A.cookie,
    {
      method: 'POST',
      url: '/api/orders',
      body: {
        kitchenUid: w.kitchenX.uid,
        itemIds: [w.itemX.id],
        address: w.orderA.address,
        payment: 'card',
        idempotencyKey: `matrix-card-${randomUUID()}`,
      },
    },
    201,
  );
  w.orderA = placed.json<CustomerOrder>();
  await local.pay(
    /\/checkout\/(cs_[0-9a-f]+)/.exec(w.orderA.payment.checkoutUrl ?? '')?.[1] ?? '',
    '4242424242424242',
  );
  await local.settled();
  await deliverOrderA(ctx, w);
  // The capture's event, delivered before the fingerprints are taken.
  await local.settled();
}

/** A's problem with one of its order's dishes: missing. */
const problemOfA = (w: World) => ({
  reason: 'missing',
  dishes: [{ item: w.itemX.item, priceCents: w.itemX.priceCents, quantity: 1 }],
  details: `Missing ${w.tag}`,
});

/** A's delivered card order at X (cardOrderADelivered), of which A reported a problem. */
async function problemReportedByA(ctx: TestContext, w: World) {
  await cardOrderADelivered(ctx, w);
  await call(
    ctx,
    w.parties.A.cookie,
    { method: 'POST', url: `/api/orders/${w.orderA.id}/problem`, body: problemOfA(w) },
    201,
  );
}

/** A's delivered card order at X, of which A reported a problem with a photo: a private picture. */
async function problemPhotoOfA(ctx: TestContext, w: World) {
  await cardOrderADelivered(ctx, w);
  const upload = await ctx.app.inject({
    method: 'POST',
    url: '/api/customer/images',
    headers: { cookie: w.parties.A.cookie, 'content-type': 'image/png' },
    payload: await makePicture('png', 64, 48),
  });
  w.problemPhotoA = upload.json<StoredImage>();
  await call(
    ctx,
    w.parties.A.cookie,
    {
      method: 'POST',
      url: `/api/orders/${w.orderA.id}/problem`,
      body: { ...problemOfA(w), photoIds: [w.problemPhotoA.id] },
    },
    201,
  );
}

/** A's delivered card order at X (cardOrderADelivered), disputed by A's bank: the dispute is open. */
async function disputedOrderA(ctx: TestContext, w: World) {
  await cardOrderADelivered(ctx, w);
  const local = ctx.app.payments.local;
  const session = local?.objects.get(
    /\/checkout\/(cs_[0-9a-f]+)/.exec(w.orderA.payment.checkoutUrl ?? '')?.[1] ?? '',
  );
  await local?.dispute(String(session?.payment_intent));
  await local?.settled();
}

/** A's order at X is delivered and A rated it. */
async function reviewByA(ctx: TestContext, w: World) {
  await deliverOrderA(ctx, w);
  const res = await call(
    ctx,
    w.parties.A.cookie,
    { method: 'POST', url: `/api/orders/${w.orderA.id}/review`, body: { stars: 4, text: `Good ${w.tag}` } },
    201,
  );
  w.reviewA = res.json<Review>();
  w.reviewId = w.reviewA.id;
}

/** X's reviews: exactly A's. */
function seesReviewsOfX(data: unknown, w: World) {
  expect((data as Review[]).map((r) => r.id)).toEqual([w.reviewA?.id]);
}

/** 'Download my data': the actor's own profile, and their kitchen (X's or Y's) or none. */
function seesOwnExport(data: unknown, w: World, actor: Party) {
  const exported = data as DataExport;
  expect(exported.profile.id).toBe(w.parties[actor].user.id);
  const kitchen = actor === 'X' ? w.kitchenX : actor === 'Y' ? w.kitchenY : undefined;
  expect(exported.kitchen?.uid ?? null).toBe(kitchen?.uid ?? null);
}

/** After 'Delete my account', the actor is no one: their cookie signs no one in. */
async function accountDeleted(_data: unknown, w: World, actor: Party, ctx: TestContext) {
  const res = await ctx.app.inject({ url: '/api/session', headers: { cookie: w.parties[actor].cookie } });
  expect(res.json<SessionState>()).toEqual({ kitchen: null, customer: null, operator: null });
}

/** X and Y take A's and B's orders off their lists: nothing is in progress any more. */
async function endOrders(ctx: TestContext, w: World) {
  await call(ctx, w.parties.X.cookie, { method: 'DELETE', url: `/api/kitchen/orders/${w.orderA.id}` }, 204);
  await call(ctx, w.parties.Y.cookie, { method: 'DELETE', url: `/api/kitchen/orders/${w.orderB.id}` }, 204);
}
/** Someone outside the world says something in the chat (a message no party owns, to report). */
async function otherSaysSomething(ctx: TestContext, w: World) {
  const other = await signedIn(ctx, 'customer', { displayName: `Other ${w.tag}` });
  w.otherMessage = (
    await call(ctx, other.cookie, { method: 'POST', url: '/api/chat', body: { text: `Other ${w.tag}` } }, 201)
  ).json<ChatMessage>();
}

/** A reports Y's kitchen. */
async function aReportsY(ctx: TestContext, w: World) {
  const res = await call(
    ctx,
    w.parties.A.cookie,
    {
      method: 'POST',
      url: '/api/reports',
      body: { targetKind: 'kitchen', targetId: w.kitchenY.uid, reason: 'Odd' },
    },
    201,
  );
  w.reportId = res.json<{ id: string }>().id;
}

/** X's kitchen, suspended by an operator before. */
/** X's own promotion code (its kitchen pays it): 10 % off. */
async function aCodeOfX(ctx: TestContext, w: World) {
  const code = `X${randomBytes(6).toString('hex').toUpperCase()}`;
  const [row] = await ctx.database.db
    .insert(promoCodes)
    .values({
      code,
      paidBy: 'kitchen',
      kitchenId: w.kitchenX.uid,
      percentOff: 10,
      currency: 'USD',
      createdBy: w.parties.X.user.id,
    })
    .returning({ id: promoCodes.id });
  const id = row?.id;
  w.codeX = { id: id ?? '', code };
}

async function suspendX(ctx: TestContext, w: World) {
  await ctx.database.db.execute(
    sql`update kitchens set suspended_at = now() where owner_id = ${w.kitchenX.uid}`,
  );
}

/** X's kitchen is in a place whose rules ask for a permit, and no operator has decided yet. */
async function xAwaitsApproval(ctx: TestContext, w: World) {
  await ctx.database.db.execute(
    sql`update kitchens set listing = 'awaiting-approval' where owner_id = ${w.kitchenX.uid}`,
  );
}

/** What an operator's page must hold: the open reports, and no email but operators'. */
function seesModeration(data: unknown, w: World) {
  const view = data as ModerationView;
  expect(view.reports.map((r) => r.id)).toContain(w.reportId);
  expect(Array.isArray(view.actions) && Array.isArray(view.suspendedKitchens)).toBe(true);
}

const operatorOnly = [refuse, refuse, refuse, refuse, refuse, allow] as const;

/** A writes to X on A's order. */
async function aWritesToX(ctx: TestContext, w: World) {
  const body = { text: `No peanuts ${w.tag}` };
  await call(
    ctx,
    w.parties.A.cookie,
    { method: 'POST', url: `/api/orders/${w.orderA.id}/messages`, body },
    201,
  );
}

/**
 * 'Notifications': the kinds of the actor's role, all on (the cook's new-order email locked: X and Y take orders;
 * and the notices the law asks for).
 */
function seesOwnNotificationSettings(data: unknown, _w: World, actor: Party) {
  const role = roleOf(actor);
  const settings = data as NotificationSettings;
  expect(settings.email.map((s) => s.kind)).toEqual(
    NOTICE_KINDS.filter((kind) => NOTICE_AUDIENCE[kind] === role),
  );
  expect(
    settings.email.every(
      (s) => s.email && s.locked === (s.kind === 'order-new' || ALWAYS_EMAILED.includes(s.kind)),
    ),
  ).toBe(true);
  expect(settings.devices).toEqual([]);
}

/** A browser's push subscription (`PushSubscription.toJSON()`), at a push service's endpoint of its own. */
function pushSubscriptionBody() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

/** X gets notifications on a device. */
async function xSubscribes(ctx: TestContext, w: World) {
  const res = await call(
    ctx,
    w.parties.X.cookie,
    { method: 'POST', url: '/api/notifications/push-subscriptions', body: pushSubscriptionBody() },
    201,
  );
  w.deviceX = res.json<{ id: string }>().id;
}

/** The link in A's 'Your order on its way' emails that turns them off. */
async function aUnsubscribeLink(ctx: TestContext, w: World) {
  const url = unsubscribeUrl(ctx.app, w.parties.A.user.id, 'order-dispatched');
  w.unsubscribeA = url.slice(ctx.config.publicUrl.length);
}

/** A's order's conversation: A's message, open while the order is in progress. */
function seesConversationOfA(data: unknown, w: World) {
  const conversation = data as OrderConversation;
  expect(conversation.messages.map((m) => [m.from, m.text])).toEqual([['customer', `No peanuts ${w.tag}`]]);
  expect(conversation).toMatchObject({ open: true, closesAt: null });
}

// prettier-ignore
const MATRIX: readonly Row[] = [
  // ---- public reads ----
  { route: 'GET /api/session', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/session' }),
    sees: seesOwnSession },
  { route: 'GET /api/kitchens', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/kitchens' }),
    sees: seesKitchensXY },
  { route: 'GET /api/fees', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/fees' }),
    sees: (d) => expect(d).toMatchObject({ commissionPercent: expect.any(Number) }) },
  { route: 'GET /api/kitchens/first-page', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/kitchens/first-page' }),
    sees: (d, w) => seesKitchensXY((d as { kitchens: Kitchen[] }).kitchens, w) },
  { route: 'GET /api/kitchens/page', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/kitchens/page' }),
    sees: (d, w) => seesKitchensXY((d as { kitchens: Kitchen[] }).kitchens, w) },
  { route: 'GET /api/kitchens/:uid', target: "X's kitchen", cells: [allow, allow, allow, allow, allow, allow],
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}` }),
    sees: (d, w) => expect((d as Kitchen).uid).toBe(w.kitchenX.uid) },
  { route: 'GET /api/kitchens/:uid/menu', target: "X's menu", cells: [allow, allow, allow, allow, allow, allow],
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/menu` }),
    sees: seesMenuOfX },
  // A suspended kitchen's dishes and reviews: its cook's and operators' only.
  { route: 'GET /api/kitchens/:uid/menu', target: "X's suspended menu", cells: [refuse, refuse, refuse, allow, refuse, allow],
    setUp: suspendX,
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/menu` }),
    sees: seesMenuOfX },
  { route: 'GET /api/geocode/settings', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/geocode/settings' }) },
  { route: 'GET /api/geocode', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/geocode?q=Main%20Street' }) },

  // ---- the owner's own kitchen ----
  { route: 'GET /api/kitchen/check', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/check' }),
    sees: (d, w, actor) => seesOwnKitchen((d as { kitchen: Kitchen }).kitchen, w, actor) },
  { route: 'GET /api/kitchen', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen' }),
    sees: seesOwnKitchen },
  // X and Y already have a kitchen: a second one is refused with 409 (one kitchen per owner).
  { route: 'POST /api/kitchen', target: 'a second kitchen', cells: [refuse, refuse, refuse, refuse, refuse, refuse],
    request: (w) => ({ method: 'POST', url: '/api/kitchen', body: kitchenBody(`Second ${w.tag}`) }),
    refusedAlsoWith: 409 },
  { route: 'PATCH /api/kitchen', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: (w) => ({ method: 'PATCH', url: '/api/kitchen', body: { name: `Renamed ${w.tag}` } }),
    sees: seesOwnKitchen },
  { route: 'POST /api/kitchen/pause', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'POST', url: '/api/kitchen/pause', body: { paused: false } }),
    sees: seesOwnKitchen },

  // ---- the owner's menu: X's item is the target ----
  { route: 'POST /api/kitchen/menu', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: (w) => ({ method: 'POST', url: '/api/kitchen/menu', body: itemBody(`Added ${w.tag}`) }),
    sees: (d, w, actor) =>
      expect((d as MenuItem).kitchenUid).toBe(actor === 'X' ? w.kitchenX.uid : w.kitchenY.uid) },
  { route: 'PATCH /api/kitchen/menu/:id', target: "X's item", cells: [refuse, refuse, refuse, allow, refuse, refuse],
    request: (w) => ({ method: 'PATCH', url: `/api/kitchen/menu/${w.itemX.id}`, body: { price: '1.00' } }),
    sees: (d, w) => expect(d).toMatchObject({ id: w.itemX.id, priceCents: 100 }) },
  { route: 'DELETE /api/kitchen/menu/:id', target: "X's item", cells: [refuse, refuse, refuse, allow, refuse, refuse],
    request: (w) => ({ method: 'DELETE', url: `/api/kitchen/menu/${w.itemX.id}` }) },

  // ---- the kitchen's orders: A's order at X is the target ----
  { route: 'GET /api/kitchen/orders', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/orders' }),
    sees: seesOwnKitchenOrders },
  { route: 'PATCH /api/kitchen/orders/:id', target: "A's order at X",
    cells: [refuse, refuse, refuse, allow, refuse, refuse],
    request: (w) =>
      ({ method: 'PATCH', url: `/api/kitchen/orders/${w.orderA.id}`, body: { status: 'Cooking' } }),
    sees: (d, w) => expect(d).toMatchObject({ id: w.orderA.id, status: 'Cooking' }) },
  { route: 'DELETE /api/kitchen/orders/:id', target: "A's order at X",
    cells: [refuse, refuse, refuse, allow, refuse, refuse],
    request: (w) => ({ method: 'DELETE', url: `/api/kitchen/orders/${w.orderA.id}` }) },
  { route: 'POST /api/kitchen/orders/:id/moves', target: "A's order at X",
    cells: [refuse, refuse, refuse, allow, refuse, refuse],
    request: (w) => ({ method: 'POST', url: `/api/kitchen/orders/${w.orderA.id}/moves`,
      body: { move: 'accept', readyInMinutes: 30 } }),
    sees: (d, w) => expect(d).toMatchObject({ id: w.orderA.id, state: 'accepted', status: 'accepted' }) },
  { route: 'POST /api/kitchen/orders/:id/refunds', target: "A's delivered card order at X",
    cells: [refuse, refuse, refuse, allow, refuse, refuse], setUp: cardOrderADelivered,
    request: (w) => ({ method: 'POST', url: `/api/kitchen/orders/${w.orderA.id}/refunds`,
      body: { key: `matrix-${w.tag}`, amountCents: 100, reason: 'Missing dish' } }),
    sees: (d) => expect(d).toMatchObject({ amountCents: 100, whoPays: 'kitchen', state: 'refunded' }),
    // The provider's `charge.refunded` event comes back to the webhook.
    alsoChanges: () => ({ payment_events: sql`t.type = 'charge.refunded'` }) },
  { route: 'GET /api/kitchen/orders/past', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/orders/past' }),
    sees: (d) => expect(d).toEqual([]) },

  // ---- the customer's order ----
  // One open order per customer: X and Y first close A's and B's, so that a new order can be placed.
  { route: 'POST /api/orders', target: 'an order at X', cells: [refuse, allow, allow, refuse, refuse, refuse],
    setUp: async (ctx, w) => {
      const close = (owner: Signed, order: CustomerOrder) =>
        call(ctx, owner.cookie, { method: 'DELETE', url: `/api/kitchen/orders/${order.id}` }, 204);
      await close(w.parties.X, w.orderA);
      await close(w.parties.Y, w.orderB);
    },
    request: (w) => ({ method: 'POST', url: '/api/orders', body: {
      kitchenUid: w.kitchenX.uid, itemIds: [w.itemX.id], address: `New address ${w.tag}`,
      idempotencyKey: `matrix-${randomUUID()}` } }),
    sees: (d, w) =>
      expect(d).toMatchObject({ kitchenUid: w.kitchenX.uid, address: `New address ${w.tag}` }) },
  { route: 'GET /api/orders/mine', cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'GET', url: '/api/orders/mine' }),
    sees: seesOwnOpenOrder },
  { route: 'GET /api/orders', cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'GET', url: '/api/orders' }),
    sees: seesOwnOrders },
  { route: 'POST /api/orders/:id/cancel', target: "A's order", cells: [refuse, allow, refuse, refuse, refuse, refuse],
    request: (w) => ({ method: 'POST', url: `/api/orders/${w.orderA.id}/cancel`, body: {} }),
    sees: (d, w) => expect(d).toMatchObject({ id: w.orderA.id, state: 'cancelled' }) },
  { route: 'POST /api/orders/:id/payment/check', target: "A's order", cells: [refuse, allow, refuse, refuse, refuse, refuse],
    request: (w) => ({ method: 'POST', url: `/api/orders/${w.orderA.id}/payment/check`, body: {} }),
    sees: (d, w) => expect(d).toMatchObject({ id: w.orderA.id, state: 'recieved' }) },
  { route: 'GET /api/orders/:id/again', target: "A's order", cells: [refuse, allow, refuse, refuse, refuse, refuse],
    request: (w) => ({ method: 'GET', url: `/api/orders/${w.orderA.id}/again` }),
    sees: (d, w) => expect(d).toMatchObject({ kitchen: { uid: w.kitchenX.uid }, items: [{ id: w.itemX.id }] }) },

  // ---- an order's conversation: its customer and its cook write to each other; operators read it ----
  { route: 'GET /api/orders/:id/messages', target: "A's order at X", cells: [refuse, allow, refuse, allow, refuse, allow],
    setUp: aWritesToX,
    request: (w) => ({ method: 'GET', url: `/api/orders/${w.orderA.id}/messages` }),
    sees: seesConversationOfA },
  { route: 'POST /api/orders/:id/messages', target: "A's order at X", cells: [refuse, allow, refuse, allow, refuse, refuse],
    request: (w) => ({ method: 'POST', url: `/api/orders/${w.orderA.id}/messages`, body: { text: `Hi ${w.tag}` } }),
    sees: (d, w, actor) => expect(d).toMatchObject({ from: roleOf(actor), text: `Hi ${w.tag}` }) },

  // ---- reviews: A's delivered order at X, A's review of it ----
  { route: 'POST /api/orders/:id/review', target: "A's delivered order", cells: [refuse, allow, refuse, refuse, refuse, refuse],
    setUp: deliverOrderA,
    request: (w) => ({ method: 'POST', url: `/api/orders/${w.orderA.id}/review`, body: { stars: 5, text: 'Yum' } }),
    sees: (d) => expect(d).toMatchObject({ stars: 5, text: 'Yum', reply: null }) },
  { route: 'GET /api/kitchens/:uid/reviews', target: "X's reviews", cells: [allow, allow, allow, allow, allow, allow],
    setUp: reviewByA,
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/reviews` }),
    sees: seesReviewsOfX },
  { route: 'GET /api/kitchens/:uid/reviews/older', target: "X's reviews", cells: [allow, allow, allow, allow, allow, allow],
    setUp: reviewByA,
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/reviews/older?before=${w.reviewId}` }),
    sees: (d) => expect(d).toEqual([]) },
  { route: 'GET /api/kitchens/:uid/reviews/older', target: "X's suspended reviews",
    cells: [refuse, refuse, refuse, allow, refuse, allow],
    setUp: async (ctx, w) => {
      await reviewByA(ctx, w);
      await suspendX(ctx, w);
    },
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/reviews/older?before=${w.reviewId}` }),
    sees: (d) => expect(d).toEqual([]) },
  { route: 'GET /api/kitchens/:uid/reviews', target: "X's suspended reviews",
    cells: [refuse, refuse, refuse, allow, refuse, allow],
    setUp: async (ctx, w) => {
      await reviewByA(ctx, w);
      await suspendX(ctx, w);
    },
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/reviews` }),
    sees: seesReviewsOfX },
  { route: 'POST /api/kitchen/reviews/:id/reply', target: "A's review",
    cells: [refuse, refuse, refuse, allow, refuse, refuse],
    setUp: reviewByA,
    request: (w) => ({ method: 'POST', url: `/api/kitchen/reviews/${w.reviewA?.id}/reply`, body: { reply: 'Thanks' } }),
    sees: (d, w) => expect(d).toMatchObject({ id: w.reviewA?.id, reply: 'Thanks' }) },

  // ---- chat ----
  { route: 'GET /api/chat', cells: [refuse, allow, allow, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/chat' }),
    sees: seesChatWithA },
  { route: 'GET /api/chat/history', target: "before A's message", cells: [refuse, allow, allow, allow, allow, refuse],
    request: (w) => ({ method: 'GET', url: `/api/chat/history?before=${w.messageA.id}` }),
    sees: (d, w) => expect((d as ChatMessage[]).map((m) => m.id)).not.toContain(w.messageA.id) },
  { route: 'GET /api/chat/hidden', cells: [refuse, allow, allow, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/chat/hidden' }),
    sees: (d) => expect(Array.isArray(d)).toBe(true) },
  { route: 'POST /api/chat', cells: [refuse, allow, allow, allow, allow, refuse],
    request: (w) => ({ method: 'POST', url: '/api/chat', body: { text: `Hello ${w.tag}` } }),
    sees: (d, w, actor) => expect((d as ChatMessage).uid).toBe(w.parties[actor].user.id) },

  // ---- signing out: only ever one's own session ----
  { route: 'POST /auth/:role/sign-out', target: 'customer', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'POST', url: '/auth/customer/sign-out' }),
    sees: signedOutOf('customer') },
  { route: 'POST /auth/:role/sign-out', target: 'kitchen', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'POST', url: '/auth/kitchen/sign-out' }),
    sees: signedOutOf('kitchen') },

  { route: 'POST /auth/:role/sign-out', target: 'operator', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'POST', url: '/auth/operator/sign-out' }),
    sees: signedOutOf('operator') },

  // ---- reports and moderation: any customer or kitchen owner may report; only operators act ----
  { route: 'POST /api/reports', target: "someone else's message", cells: [refuse, allow, allow, allow, allow, refuse],
    setUp: otherSaysSomething,
    request: (w) => ({ method: 'POST', url: '/api/reports',
      body: { targetKind: 'chat_message', targetId: w.otherMessage?.id, reason: `Rude ${w.tag}` } }),
    sees: (d, w) => expect(d).toMatchObject({ targetId: w.otherMessage?.id, reason: `Rude ${w.tag}` }) },
  { route: 'GET /api/operator/moderation', cells: operatorOnly, setUp: aReportsY,
    request: () => ({ method: 'GET', url: '/api/operator/moderation' }),
    sees: seesModeration },
  { route: 'GET /api/operator/moderation', stream: true, cells: operatorOnly, setUp: aReportsY,
    request: () => ({ method: 'GET', url: '/api/operator/moderation' }),
    sees: seesModeration },
  { route: 'POST /api/operator/chat-messages/:id/hide', target: "A's message", cells: operatorOnly,
    request: (w) => ({ method: 'POST', url: `/api/operator/chat-messages/${w.messageA.id}/hide`, body: {} }),
    alsoChanges: (w) => ({ chat_messages: sql`t.id = ${w.messageA.id}`, reports: sql`t.target_id = ${w.messageA.id}` }),
    sees: (d) => expect(d).toEqual({ changed: true }) },
  { route: 'POST /api/operator/reviews/:id/hide', target: "A's review of X", cells: operatorOnly, setUp: reviewByA,
    request: (w) => ({ method: 'POST', url: `/api/operator/reviews/${w.reviewId}/hide`, body: {} }),
    alsoChanges: (w) => ({ reviews: sql`t.id = ${w.reviewId ?? null}`, reports: sql`t.target_id = ${w.reviewId ?? null}` }),
    sees: (d) => expect(d).toEqual({ changed: true }) },
  { route: 'POST /api/operator/kitchens/:uid/suspend', target: "X's kitchen", cells: operatorOnly,
    request: (w) => ({ method: 'POST', url: `/api/operator/kitchens/${w.kitchenX.uid}/suspend`, body: {} }),
    alsoChanges: (w) => ({ kitchens: sql`t.owner_id = ${w.kitchenX.uid}`, reports: sql`t.target_id = ${w.kitchenX.uid}` }),
    sees: (d) => expect(d).toEqual({ changed: true }) },
  { route: 'POST /api/operator/kitchens/:uid/lift-suspension', target: "X's suspended kitchen", cells: operatorOnly,
    setUp: suspendX,
    request: (w) => ({ method: 'POST', url: `/api/operator/kitchens/${w.kitchenX.uid}/lift-suspension`, body: {} }),
    alsoChanges: (w) => ({ kitchens: sql`t.owner_id = ${w.kitchenX.uid}` }),
    sees: (d) => expect(d).toEqual({ changed: true }) },
  { route: 'POST /api/operator/kitchens/:uid/listing', target: "X's kitchen awaiting approval", cells: operatorOnly,
    setUp: xAwaitsApproval,
    request: (w) => ({ method: 'POST', url: `/api/operator/kitchens/${w.kitchenX.uid}/listing`, body: { decision: 'approve' } }),
    alsoChanges: (w) => ({ kitchens: sql`t.owner_id = ${w.kitchenX.uid}` }),
    sees: (d) => expect(d).toEqual({ changed: true }) },
  { route: 'POST /api/operator/kitchens/:uid/referral', target: "X's kitchen", cells: operatorOnly,
    request: (w) => ({ method: 'POST', url: `/api/operator/kitchens/${w.kitchenX.uid}/referral` }),
    sees: (d) => expect(d).toMatchObject({ changed: true }) },
  { route: 'GET /api/operator/kitchens/:uid/record', target: "X's kitchen", cells: operatorOnly,
    request: (w) => ({ method: 'GET', url: `/api/operator/kitchens/${w.kitchenX.uid}/record` }) },
  { route: 'POST /api/operator/rule-overrides', target: "X's kitchen", cells: operatorOnly,
    request: (w) => ({ method: 'POST', url: '/api/operator/rule-overrides', body: { scope: 'kitchen', target: w.kitchenX.uid, key: 'mealsPerDay', value: 20, reason: 'Inspected' } }),
    sees: (d) => expect(d).toMatchObject({ scope: 'kitchen', value: 20 }) },
  { route: 'POST /api/operator/fee-changes', cells: operatorOnly,
    request: () => ({ method: 'POST', url: '/api/operator/fee-changes', body: { commissionPercent: 12.5, effectiveOn: '2099-01-01' } }),
    sees: (d) => expect(d).toMatchObject({ commissionPercent: 12.5, effectiveOn: '2099-01-01' }) },
  { route: 'GET /api/operator/rules', cells: operatorOnly,
    request: () => ({ method: 'GET', url: '/api/operator/rules' }),
    sees: (d) => expect(d).toMatchObject({ profiles: expect.arrayContaining([expect.objectContaining({ id: 'us/ca/los-angeles' })]) }) },
  { route: 'GET /api/operator/fee-changes', cells: operatorOnly,
    request: () => ({ method: 'GET', url: '/api/operator/fee-changes' }),
    sees: (d) => expect(d).toMatchObject({ changes: expect.any(Array) }) },
  { route: 'POST /api/operator/reports/:id/close', target: "A's report of Y's kitchen", cells: operatorOnly,
    setUp: aReportsY,
    request: (w) => ({ method: 'POST', url: `/api/operator/reports/${w.reportId}/close`, body: {} }),
    alsoChanges: (w) => ({ reports: sql`t.id = ${w.reportId ?? null}` }),
    sees: (d) => expect(d).toEqual({ changed: true }) },
  // ---- money: a cook's earnings (A's delivered cash order is X's, Y has none); the operator's overview ----
  { route: 'GET /api/kitchen/earnings', cells: [refuse, refuse, refuse, allow, allow, refuse], setUp: deliverOrderA,
    request: () => ({ method: 'GET', url: '/api/kitchen/earnings' }),
    sees: (d, w, actor) => expect((d as Earnings).lines.map((l) => l.orderId)).toEqual(actor === 'X' ? [w.orderA.id] : []) },
  { route: 'GET /api/kitchen/earnings.csv', cells: [refuse, refuse, refuse, allow, allow, refuse], setUp: deliverOrderA,
    request: () => ({ method: 'GET', url: '/api/kitchen/earnings.csv' }) },
  { route: 'POST /api/operator/orders/:id/refunds', target: "A's delivered card order at X", cells: operatorOnly,
    setUp: cardOrderADelivered,
    request: (w) => ({ method: 'POST', url: `/api/operator/orders/${w.orderA.id}/refunds`,
      body: { key: `matrix-${w.tag}`, amountCents: 100, whoPays: 'platform' } }),
    sees: (d) => expect(d).toMatchObject({ amountCents: 100, whoPays: 'platform', state: 'refunded' }),
    alsoChanges: (w) => ({ order_refunds: sql`t.order_id = ${w.orderA.id}`, ledger_entries: sql`t.order_id = ${w.orderA.id}`,
      payment_events: sql`t.type = 'charge.refunded'` }) },
  { route: 'POST /api/orders/:id/problem', target: "A's delivered card order at X",
    cells: [refuse, allow, refuse, refuse, refuse, refuse], setUp: cardOrderADelivered,
    request: (w) => ({ method: 'POST', url: `/api/orders/${w.orderA.id}/problem`, body: problemOfA(w) }),
    sees: (d) => expect(d).toMatchObject({ reason: 'missing', resolvedAt: null }) },
  // A tip for the cook after delivery opens a payment page of its own: the order's customer only.
  { route: 'POST /api/orders/:id/tips', target: "A's delivered card order at X",
    cells: [refuse, allow, refuse, refuse, refuse, refuse], setUp: cardOrderADelivered,
    request: (w) => ({ method: 'POST', url: `/api/orders/${w.orderA.id}/tips`,
      body: { amountCents: 300, requestKey: `matrix-${w.tag}` } }),
    sees: (d) => expect(d).toMatchObject({ tip: { amountCents: 300, state: 'paying' } }) },
  // Closing a problem report without a refund: the order's cook, or an operator.
  { route: 'POST /api/kitchen/orders/:id/problem/close', target: "A's problem with its order at X",
    cells: [refuse, refuse, refuse, allow, refuse, refuse], setUp: problemReportedByA,
    request: (w) => ({ method: 'POST', url: `/api/kitchen/orders/${w.orderA.id}/problem/close`,
      body: { reason: `Delivered hot ${w.tag}` } }),
    sees: (d) => expect(d).toMatchObject({ closedBy: 'kitchen' }) },
  { route: 'POST /api/operator/orders/:id/problem/close', target: "A's problem with its order at X",
    cells: operatorOnly, setUp: problemReportedByA,
    request: (w) => ({ method: 'POST', url: `/api/operator/orders/${w.orderA.id}/problem/close`,
      body: { reason: `Checked ${w.tag}` } }),
    sees: (d) => expect(d).toMatchObject({ closedBy: 'operator' }),
    alsoChanges: (w) => ({ problem_reports: sql`t.order_id = ${w.orderA.id}` }) },
  // A paid order's receipt: its customer's, and operators'.
  { route: 'GET /api/orders/:id/receipt', target: "A's delivered card order at X",
    cells: [refuse, allow, refuse, refuse, refuse, allow], setUp: cardOrderADelivered,
    request: (w) => ({ method: 'GET', url: `/api/orders/${w.orderA.id}/receipt` }),
    mayShow: (w) => [w.orderA.id] },
  { route: 'GET /api/orders/:id/receipt.pdf', target: "A's delivered card order at X",
    cells: [refuse, allow, refuse, refuse, refuse, allow], setUp: cardOrderADelivered,
    request: (w) => ({ method: 'GET', url: `/api/orders/${w.orderA.id}/receipt.pdf` }) },
  // Its operators' list names the order (to refund it, choosing who pays): operators only.
  { route: 'GET /api/operator/problem-reports', target: "A's problem with its order at X", cells: operatorOnly,
    setUp: problemReportedByA,
    request: () => ({ method: 'GET', url: '/api/operator/problem-reports' }),
    mayShow: (w) => [w.orderA.id],
    sees: (d, w) => expect((d as { orderId: string }[]).map((r) => r.orderId)).toContain(w.orderA.id) },
  { route: 'GET /api/kitchen/orders/:id/labels', target: "A's order at X", cells: [refuse, refuse, refuse, allow, refuse, refuse],
    setUp: deliverOrderA,
    request: (w) => ({ method: 'GET', url: `/api/kitchen/orders/${w.orderA.id}/labels?size=a4` }) },
  { route: 'GET /api/kitchen/orders/:id/packing-list', target: "A's order at X", cells: [refuse, refuse, refuse, allow, refuse, refuse],
    request: (w) => ({ method: 'GET', url: `/api/kitchen/orders/${w.orderA.id}/packing-list` }) },
  { route: 'GET /api/kitchen/prep-sheet', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/prep-sheet?slot=asap' }) },
  { route: 'POST /api/operator/orders/:id/dispute/evidence', target: "A's disputed order at X", cells: operatorOnly,
    setUp: disputedOrderA,
    request: (w) => ({ method: 'POST', url: `/api/operator/orders/${w.orderA.id}/dispute/evidence` }),
    sees: (d) => expect(d).toMatchObject({ submitted: true, fields: expect.arrayContaining(['product_description']) }),
    // The dispute's row, and the provider's `charge.dispute.updated` coming back to the webhook.
    alsoChanges: (w) => ({ order_disputes: sql`t.order_id = ${w.orderA.id}`,
      payment_events: sql`t.type = 'charge.dispute.updated'` }) },
  // ---- promotion codes (ADR 30): the operator's, and each cook's own for their kitchen ----
  { route: 'GET /api/operator/codes', cells: operatorOnly, setUp: aCodeOfX,
    request: () => ({ method: 'GET', url: '/api/operator/codes' }),
    sees: (d, w) => expect((d as { codes: { code: string }[] }).codes.map((c) => c.code)).toContain(w.codeX?.code) },
  { route: 'POST /api/operator/codes', cells: operatorOnly,
    request: () => ({ method: 'POST', url: '/api/operator/codes', body: { amountOffCents: 500, maxUses: 10 } }),
    sees: (d) => expect(d).toMatchObject({ code: { paidBy: 'platform', amountOffCents: 500, uses: 0 } }) },
  { route: 'PATCH /api/operator/codes/:id', target: "X's code", cells: operatorOnly, setUp: aCodeOfX,
    request: (w) => ({ method: 'PATCH', url: `/api/operator/codes/${w.codeX?.id}`, body: { active: false } }),
    sees: (d) => expect(d).toMatchObject({ code: { active: false } }),
    alsoChanges: (w) => ({ promo_codes: sql`t.id = ${w.codeX?.id ?? null}` }) },
  { route: 'GET /api/kitchen/codes', cells: [refuse, refuse, refuse, allow, allow, refuse], setUp: aCodeOfX,
    request: () => ({ method: 'GET', url: '/api/kitchen/codes' }),
    sees: (d, w, actor) => expect((d as { codes: { code: string }[] }).codes.map((c) => c.code)).toEqual(
      actor === 'X' ? [w.codeX?.code] : []) },
  { route: 'POST /api/kitchen/codes', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'POST', url: '/api/kitchen/codes', body: { percentOff: 10 } }),
    sees: (d, w, actor) => expect(d).toMatchObject({ code: { paidBy: 'kitchen',
      kitchenUid: actor === 'X' ? w.kitchenX.uid : w.kitchenY.uid } }) },
  { route: 'PATCH /api/kitchen/codes/:id', target: "X's code", cells: [refuse, refuse, refuse, allow, refuse, refuse],
    setUp: aCodeOfX,
    request: (w) => ({ method: 'PATCH', url: `/api/kitchen/codes/${w.codeX?.id}`, body: { active: false } }),
    sees: (d) => expect(d).toMatchObject({ code: { active: false } }) },
  { route: 'POST /api/orders/code', target: "X's code", cells: [refuse, allow, allow, refuse, refuse, refuse],
    setUp: aCodeOfX,
    request: (w) => ({ method: 'POST', url: '/api/orders/code',
      body: { code: w.codeX?.code.toLowerCase(), kitchenUid: w.kitchenX.uid, itemIds: [w.itemX.id] } }),
    sees: (d, w) => expect(d).toMatchObject({ code: w.codeX?.code, paidBy: 'kitchen' }) },
  { route: 'GET /api/operator/money', cells: operatorOnly,
    request: () => ({ method: 'GET', url: '/api/operator/money' }),
    sees: (d) => expect(d).toMatchObject({ differences: expect.any(Array), refunds: expect.any(Array) }) },
  // ---- insights: a cook's own figures (A's order is X's, B's Y's); the operator's overview of all ----
  { route: 'GET /api/kitchen/insights', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/insights?period=week' }),
    sees: (d) => expect((d as Insights).totals.orders).toBe(1) },
  { route: 'GET /api/kitchen/insights.csv', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/insights.csv?chart=sales' }) },
  { route: 'GET /api/operator/kitchens/:uid/insights', target: "X's kitchen", cells: operatorOnly,
    request: (w) => ({ method: 'GET', url: `/api/operator/kitchens/${w.kitchenX.uid}/insights` }),
    sees: (d) => expect((d as Insights).totals.orders).toBe(1) },
  { route: 'GET /api/operator/overview', cells: operatorOnly,
    request: () => ({ method: 'GET', url: '/api/operator/overview?period=week' }),
    sees: (d) => expect((d as Overview).days.length).toBeGreaterThan(0) },
  { route: 'GET /api/operator/overview.csv', cells: operatorOnly,
    request: () => ({ method: 'GET', url: '/api/operator/overview.csv?chart=days' }) },
  // ---- getting paid: each cook's own payouts and cash setting (neither X nor Y has set up payouts) ----
  { route: 'GET /api/kitchen/payouts', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/payouts' }),
    sees: (d) => expect(d).toEqual({ cardPayments: true, state: 'not-set-up', acceptsCash: true, acceptsTips: true }) },
  { route: 'POST /api/kitchen/payouts/onboarding', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'POST', url: '/api/kitchen/payouts/onboarding', body: {} }),
    sees: (d) => expect((d as { url: string }).url).toMatch(/\/onboard\/acct_\w+/) },
  { route: 'POST /api/kitchen/payouts/refresh', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'POST', url: '/api/kitchen/payouts/refresh', body: {} }),
    sees: (d) => expect(d).toEqual({ cardPayments: true, state: 'not-set-up', acceptsCash: true, acceptsTips: true }) },
  { route: 'PUT /api/kitchen/payouts/cash', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'PUT', url: '/api/kitchen/payouts/cash', body: { acceptsCash: false } }),
    sees: (d) => expect(d).toMatchObject({ acceptsCash: false }) },
  { route: 'PUT /api/kitchen/payouts/tips', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'PUT', url: '/api/kitchen/payouts/tips', body: { acceptsTips: true } }),
    sees: (d) => expect(d).toMatchObject({ acceptsTips: true }) },
  // ---- how a kitchen takes orders: each cook's own ordering options ----
  { route: 'GET /api/kitchen/ordering', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/ordering' }),
    sees: (d) => expect(d).toMatchObject({ offersDelivery: true, offersPickup: false, takesAsap: true }) },
  { route: 'PUT /api/kitchen/ordering', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: (w) => ({ method: 'PUT', url: '/api/kitchen/ordering', body: { offersDelivery: true, offersPickup: true,
      pickupAddress: `5 Pickup Yard ${w.tag}`, pickupInstructions: 'Ring twice', takesAsap: true, slotMinutes: 30,
      priorNoticeMinutes: 120, daysAhead: 2, sameDayCutoff: null, ordersPerSlot: null, minimumOrderCents: 1500 } }),
    sees: (d, w) => expect(d).toMatchObject({ offersPickup: true, pickupAddress: `5 Pickup Yard ${w.tag}`, slotMinutes: 30 }) },
  // ---- weekly plans (ADR 26): a customer's own plans; each cook's own 'Plans' and its settings ----
  { route: 'GET /api/operator/plans', cells: operatorOnly,
    request: () => ({ method: 'GET', url: '/api/operator/plans' }),
    sees: (d) => expect(d).toEqual({ due: [], failed: [] }) },
  { route: 'GET /api/kitchen/plans', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/plans' }),
    sees: (d) => expect(d).toEqual({ settings: { offered: false, cutoffHours: 48, cooksChoice: false }, slots: [] }) },
  { route: 'PUT /api/kitchen/plans/settings', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'PUT', url: '/api/kitchen/plans/settings', body: { offered: true, cutoffHours: 24 } }),
    sees: (d) => expect(d).toEqual({ offered: true, cutoffHours: 24, cooksChoice: false }) },
  { route: 'POST /api/plans', target: 'a plan at X', cells: [refuse, allow, allow, refuse, refuse, refuse],
    setUp: async (ctx, w) => offerPlans(ctx, w),
    request: (w) => ({ method: 'POST', url: '/api/plans', body: { kitchenUid: w.kitchenX.uid, itemIds: [w.itemX.id],
      address: `7 Plan Street ${w.tag}`, payment: 'cash', slotStart: tomorrowNoon() } }),
    sees: (d, w) => expect(d).toMatchObject({ kitchenUid: w.kitchenX.uid, status: 'active', payment: 'cash' }) },
  { route: 'POST /api/orders/:id/every-week', target: "A's pre-order at X", cells: [refuse, allow, refuse, refuse, refuse, refuse],
    setUp: async (ctx, w) => {
      await offerPlans(ctx, w);
      const start = new Date(tomorrowNoon());
      await ctx.database.db.execute(sql`update orders set slot_start = ${start}, slot_end = ${new Date(start.getTime() + 3_600_000)}
        where id = ${w.orderA.id}`);
    },
    request: (w) => ({ method: 'POST', url: `/api/orders/${w.orderA.id}/every-week`, body: {} }),
    sees: (d, w) => expect(d).toMatchObject({ kitchenUid: w.kitchenX.uid, status: 'active', slotTime: '12:00' }) },
  { route: 'GET /api/kitchens/:uid/plans', target: "X's kitchen", cells: [allow, allow, allow, allow, allow, allow],
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/plans` }),
    sees: (d) => expect(d).toEqual({ offered: false, cutoffHours: 48, cooksChoice: false }) },
  { route: 'GET /api/plans', cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'GET', url: '/api/plans' }),
    sees: (d) => expect(d).toEqual([]) },
  { route: 'PATCH /api/plans/:id', target: "A's plan at X", cells: [refuse, allow, refuse, refuse, refuse, refuse],
    setUp: async (ctx, w) => {
      await offerPlans(ctx, w);
      w.planA = (await call(ctx, w.parties.A.cookie, { method: 'POST', url: '/api/plans', body: { kitchenUid: w.kitchenX.uid,
        itemIds: [w.itemX.id], address: `7 Plan Street ${w.tag}`, payment: 'cash', slotStart: tomorrowNoon() } }, 201))
        .json<{ id: string }>().id;
    },
    request: (w) => ({ method: 'PATCH', url: `/api/plans/${w.planA}`, body: { action: 'pause', until: '2100-01-01' } }),
    sees: (d) => expect(d).toMatchObject({ status: 'paused', pausedUntil: '2100-01-01' }) },
  { route: 'GET /api/kitchens/:uid/payments', target: "X's kitchen", cells: [allow, allow, allow, allow, allow, allow],
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/payments` }),
    sees: (d) => expect(d).toEqual({ card: false, cash: true, tips: false }) },
  // When an order can be for: public, as the menu is, but a suspended kitchen takes no order at all.
  { route: 'GET /api/kitchens/:uid/slots', target: "X's kitchen", cells: [allow, allow, allow, allow, allow, allow],
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/slots` }),
    sees: (d) => expect(d).toMatchObject({ offersDelivery: true, slotMinutes: null, slots: [] }) },
  { route: 'GET /api/kitchens/:uid/slots', target: "X's suspended kitchen", cells: [refuse, refuse, refuse, refuse, refuse, refuse],
    setUp: suspendX,
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/slots` }) },
  // ---- the rules of a kitchen's place (jurisdictions/): the cook's own, and the public 'Fully booked today' ----
  { route: 'GET /api/kitchen/rules', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/rules' }),
    sees: (d) => expect(d).toMatchObject({ profile: { id: 'none', fallback: true }, counted: null }) },
  { route: 'GET /api/kitchen/documents', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/documents' }),
    sees: (d) => expect(d).toEqual({ documents: [], required: [], pause: null, helpers: [], helperCard: null }) },
  { route: 'POST /api/kitchen/helpers', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: (w) => ({ method: 'POST', url: '/api/kitchen/helpers', body: { name: `Helper ${w.tag}`.slice(0, 100), startedOn: '2026-11-01' } }),
    sees: (d) => expect(d).toMatchObject({ startedOn: '2026-11-01', dueOn: null, card: null }) },
  { route: 'DELETE /api/kitchen/helpers/:id', target: "X's helper", cells: [refuse, refuse, refuse, allow, refuse, refuse],
    setUp: addHelperX,
    request: (w) => ({ method: 'DELETE', url: `/api/kitchen/helpers/${w.helperX}` }) },
  { route: 'POST /api/kitchen/documents', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: (w) => ({ method: 'POST', url: '/api/kitchen/documents', body: { kind: 'permit', number: `P-${w.tag}`.slice(0, 60),
      expiresOn: '2030-01-31' } }),
    sees: (d) => expect(d).toMatchObject({ kind: 'permit', expiresOn: '2030-01-31' }) },
  { route: 'POST /api/kitchen/document-files', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'POST', url: '/api/kitchen/document-files', file: { bytes: PAPER_PDF, type: 'application/pdf' } }),
    sees: (d) => expect(d).toMatchObject({ type: 'pdf' }) },
  // Only X attaches a file to X's document (anyone else: 401 or 404, as if there were none); operators only read it.
  { route: 'PUT /api/kitchen/documents/:id/file', target: "X's document", cells: [refuse, refuse, refuse, allow, refuse, refuse],
    setUp: addDocumentX,
    request: (w) => ({ method: 'PUT', url: `/api/kitchen/documents/${w.documentX}/file`, body: { file: { type: 'pdf', id: w.pdfX } } }),
    sees: (d, w) => expect(d).toMatchObject({ id: w.documentX, file: { type: 'pdf', url: `/api/document-files/${w.pdfX}` } }) },
  { route: 'GET /api/document-files/:id', target: "X's PDF of a paper", cells: [refuse, refuse, refuse, allow, refuse, allow],
    setUp: uploadPdfX,
    request: (w) => ({ method: 'GET', url: `/api/document-files/${w.pdfX}` }) },
  { route: 'GET /api/kitchens/:uid/booking', target: "X's kitchen", cells: [allow, allow, allow, allow, allow, allow],
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/booking` }),
    sees: (d) => expect(d).toEqual({ capped: false, fullyBookedToday: false, mealsLeftToday: null, permitNumber: null }) },
  { route: 'GET /api/kitchens/:uid/booking', target: "X's suspended kitchen", cells: [refuse, refuse, refuse, refuse, refuse, refuse],
    setUp: suspendX,
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/booking` }) },
  // The provider's events: no session lets one in, only the provider's signature (none here: 400 naming it).
  { route: 'POST /api/payments/webhook', target: 'an unsigned event', cells: [refuse, refuse, refuse, refuse, refuse, refuse],
    request: (w) => ({ method: 'POST', url: '/api/payments/webhook', body: { id: `evt_${w.tag}`, object: 'event',
      type: 'checkout.session.completed', data: { object: { object: 'checkout.session', metadata: { orderId: w.orderA.id } } } } }),
    refusedAlsoWith: 400 },
  // ---- the tab's one stream: public itself, each topic in it checked with its own route's rule ----
  { route: 'GET /api/live', target: 'orders, kitchen orders, moderation', stream: true,
    cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: `/api/live?${TAB_TOPICS.map((t) => `t=${encodeURIComponent(t)}`).join('&')}` }) },
  // ---- live streams: the same URLs with accept: text/event-stream ----
  { route: 'GET /api/kitchens', stream: true, cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/kitchens' }),
    sees: seesKitchensXY },
  { route: 'GET /api/kitchens/first-page', stream: true, cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/kitchens/first-page' }),
    sees: (d, w) => seesKitchensXY((d as { kitchens: Kitchen[] }).kitchens, w) },
  { route: 'GET /api/kitchens/:uid', target: "X's kitchen", stream: true,
    cells: [allow, allow, allow, allow, allow, allow],
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}` }),
    sees: (d, w) => expect((d as Kitchen).uid).toBe(w.kitchenX.uid) },
  { route: 'GET /api/kitchens/:uid/menu', target: "X's menu", stream: true,
    cells: [allow, allow, allow, allow, allow, allow],
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/menu` }),
    sees: seesMenuOfX },
  { route: 'GET /api/kitchens/:uid/menu', target: "X's suspended menu", stream: true,
    cells: [refuse, refuse, refuse, allow, refuse, allow],
    setUp: suspendX,
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/menu` }),
    sees: seesMenuOfX },
  { route: 'GET /api/kitchen/orders', stream: true, cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/orders' }),
    sees: seesOwnKitchenOrders },
  { route: 'GET /api/kitchen/orders/past', stream: true, cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/kitchen/orders/past' }),
    sees: (d) => expect(d).toEqual([]) },
  { route: 'GET /api/orders/mine', stream: true, cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'GET', url: '/api/orders/mine' }),
    sees: seesOwnOpenOrder },
  { route: 'GET /api/orders', stream: true, cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'GET', url: '/api/orders' }),
    sees: seesOwnOrders },
  { route: 'GET /api/orders/:id/messages', target: "A's order at X", stream: true,
    cells: [refuse, allow, refuse, allow, refuse, allow],
    setUp: aWritesToX,
    request: (w) => ({ method: 'GET', url: `/api/orders/${w.orderA.id}/messages` }),
    sees: seesConversationOfA },
  { route: 'GET /api/chat', stream: true, cells: [refuse, allow, allow, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/chat' }),
    sees: seesChatWithA },
  // X's reviews (a target label would not fit docs/security.md's column).
  { route: 'GET /api/kitchens/:uid/reviews', stream: true,
    cells: [allow, allow, allow, allow, allow, allow],
    setUp: reviewByA,
    request: (w) => ({ method: 'GET', url: `/api/kitchens/${w.kitchenX.uid}/reviews` }),
    sees: seesReviewsOfX },
  { route: 'GET /api/chat/hidden', stream: true, cells: [refuse, allow, allow, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/chat/hidden' }),
    sees: (d) => expect(Array.isArray(d)).toBe(true) },
  // ---- uploaded pictures ----
  { route: 'POST /api/kitchen/images', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: (w) => ({ method: 'POST', url: '/api/kitchen/images', file: w.photoFile as { bytes: Buffer; type: string } }),
    setUp: async (_ctx, w) => { w.photoFile = { bytes: await makePicture('png', 64, 48), type: 'image/png' }; } },
  { route: 'POST /api/customer/images', cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: (w) => ({ method: 'POST', url: '/api/customer/images', file: w.photoFile as { bytes: Buffer; type: string } }),
    setUp: async (_ctx, w) => { w.photoFile = { bytes: await makePicture('png', 64, 48), type: 'image/png' }; } },
  { route: 'GET /images/:file', target: "X's kitchen photo", cells: [allow, allow, allow, allow, allow, allow],
    request: (w) => ({ method: 'GET', url: `/images/${w.photoX?.id}-64.webp` }), setUp: attachPhotoX },
  { route: 'GET /images/:file', target: "A's photo of a problem at X", cells: [refuse, allow, refuse, allow, refuse, allow],
    request: (w) => ({ method: 'GET', url: `/images/${w.problemPhotoA?.id}-64.webp` }), setUp: problemPhotoOfA },
  { route: 'PATCH /api/kitchen', target: "with X's uploaded photo", cells: [refuse, refuse, refuse, allow, refuse, refuse],
    request: (w) => ({ method: 'PATCH', url: '/api/kitchen', body: { imageId: w.photoX?.id } }), setUp: uploadPhotoX },

  // ---- 'Your data': each person's own, through their role's session. Deleting runs on worlds where A's and B's
  // orders have ended (X and Y took them off their lists); while they are in progress it is refused with 409. ----
  { route: 'GET /api/account/:role/export', target: 'customer', cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'GET', url: '/api/account/customer/export' }),
    sees: seesOwnExport },
  { route: 'GET /api/account/:role/export', target: 'kitchen', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/account/kitchen/export' }),
    sees: seesOwnExport },
  { route: 'GET /api/account/allergies', cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'GET', url: '/api/account/allergies' }),
    sees: (d) => expect(d).toMatchObject({ allergens: [], mayContainMatters: true }) },
  { route: 'PUT /api/account/allergies', cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'PUT', url: '/api/account/allergies', body: { allergens: ['sesame'], mayContainMatters: true } }),
    sees: (d) => expect(d).toMatchObject({ allergens: ['sesame'] }) },
  { route: 'GET /api/account/credit', cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'GET', url: '/api/account/credit' }),
    sees: (d) => expect(d).toMatchObject({ balanceCents: 0, entries: [] }) },
  { route: 'PUT /api/account/:role/language', target: 'customer', cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'PUT', url: '/api/account/customer/language', body: { locale: 'fr' } }) },
  { route: 'PUT /api/account/:role/language', target: 'kitchen', cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'PUT', url: '/api/account/kitchen/language', body: { locale: 'ar' } }) },
  { route: 'DELETE /api/account/:role', target: 'customer, orders ended', cells: [refuse, allow, allow, refuse, refuse, refuse],
    setUp: endOrders,
    request: () => ({ method: 'DELETE', url: '/api/account/customer' }),
    sees: accountDeleted },
  { route: 'DELETE /api/account/:role', target: 'kitchen, orders ended', cells: [refuse, refuse, refuse, allow, allow, refuse],
    setUp: endOrders,
    request: () => ({ method: 'DELETE', url: '/api/account/kitchen' }),
    sees: accountDeleted },
  { route: 'DELETE /api/account/:role', target: 'customer, order open',
    cells: [refuse, refuse, refuse, refuse, refuse, refuse],
    request: () => ({ method: 'DELETE', url: '/api/account/customer' }),
    refusedAlsoWith: 409 },
  { route: 'DELETE /api/account/:role', target: 'kitchen, order open',
    cells: [refuse, refuse, refuse, refuse, refuse, refuse],
    request: () => ({ method: 'DELETE', url: '/api/account/kitchen' }),
    refusedAlsoWith: 409 },

  // ---- 'Notifications': each person's own email settings, a cook's kinds through a kitchen session, a customer's
  // through a customer session (the other role's kinds are refused with 400); operators are told of nothing ----
  { route: 'GET /api/notifications/settings', cells: [refuse, allow, allow, allow, allow, refuse],
    request: () => ({ method: 'GET', url: '/api/notifications/settings' }),
    sees: seesOwnNotificationSettings },
  { route: 'PUT /api/notifications/settings/email', target: "a customer's kind",
    cells: [refuse, allow, allow, refuse, refuse, refuse],
    request: () => ({ method: 'PUT', url: '/api/notifications/settings/email', body: { kind: 'order-dispatched', email: false } }),
    sees: (d) => expect((d as NotificationSettings).email).toContainEqual(expect.objectContaining({ kind: 'order-dispatched', email: false })),
    refusedAlsoWith: 400 },
  { route: 'PUT /api/notifications/settings/email', target: "a cook's kind",
    cells: [refuse, refuse, refuse, allow, allow, refuse],
    request: () => ({ method: 'PUT', url: '/api/notifications/settings/email', body: { kind: 'review-new', email: false } }),
    sees: (d) => expect((d as NotificationSettings).email).toContainEqual(expect.objectContaining({ kind: 'review-new', email: false })),
    refusedAlsoWith: 400 },

  // ---- push devices: each person's own (a cook's or a customer's); operators are told of nothing ----
  { route: 'POST /api/notifications/push-subscriptions', cells: [refuse, allow, allow, allow, allow, refuse],
    request: () => ({ method: 'POST', url: '/api/notifications/push-subscriptions', body: pushSubscriptionBody() }),
    sees: (d) => expect(d).toMatchObject({ id: expect.any(String), name: 'A browser' }) },
  { route: 'DELETE /api/notifications/push-subscriptions/:id', target: "X's device",
    cells: [refuse, refuse, refuse, allow, refuse, refuse], setUp: xSubscribes,
    request: (w) => ({ method: 'DELETE', url: `/api/notifications/push-subscriptions/${w.deviceX}` }) },

  // ---- one-click unsubscribe from an email (RFC 8058): no session, the link's token says whose and of what (here
  // A's 'Your order on its way'), so whoever holds the link may use it; GET only shows the page; a forged token is
  // nobody's (400) ----
  { route: 'GET /api/notifications/unsubscribe', target: "A's link", cells: [allow, allow, allow, allow, allow, allow],
    setUp: aUnsubscribeLink,
    request: (w) => ({ method: 'GET', url: w.unsubscribeA ?? '' }) },
  { route: 'POST /api/notifications/unsubscribe', target: "A's link", cells: [allow, allow, allow, allow, allow, allow],
    setUp: aUnsubscribeLink,
    request: (w) => ({ method: 'POST', url: w.unsubscribeA ?? '' }),
    alsoChanges: (w) => ({ notification_settings: sql`t.user_id = ${w.parties.A.user.id}` }) },
  { route: 'POST /api/notifications/unsubscribe', target: 'a forged link', cells: [refuse, refuse, refuse, refuse, refuse, refuse],
    request: (w) => ({ method: 'POST',
      url: `${UNSUBSCRIBE_PATH}?token=${w.parties.A.user.id}.order-dispatched.${'A'.repeat(43)}` }),
    refusedAlsoWith: 400 },

  // ---- operations: the API's description is public; metrics need METRICS_TOKEN, which no session gives (here
  // unset, so not served at all; tests/api/metrics.test.ts refuses every session with the token set) ----
  { route: 'GET /api/openapi.json', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/openapi.json' }),
    sees: (d) => expect(d).toMatchObject({ openapi: '3.1.0' }) },
  { route: 'GET /api/docs', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/docs' }) },
  { route: 'GET /metrics', cells: [refuse, refuse, refuse, refuse, refuse, refuse],
    request: () => ({ method: 'GET', url: '/metrics' }) },
  { route: 'GET /api/kitchens/search', target: "X's name", cells: [allow, allow, allow, allow, allow, allow],
    request: (w) => ({ method: 'GET', url: `/api/kitchens/search?q=${encodeURIComponent(w.kitchenX.name)}` }),
    sees: (d, w) => expect((d as Kitchen[])[0]?.uid).toBe(w.kitchenX.uid) },
  { route: 'GET /api/kitchens/search/changes', cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/kitchens/search/changes' }),
    sees: (d) => expect(Object.keys(d as object)).toEqual(['changedAt']) },
  { route: 'GET /api/kitchens/search/changes', stream: true, cells: [allow, allow, allow, allow, allow, allow],
    request: () => ({ method: 'GET', url: '/api/kitchens/search/changes' }),
    sees: (d) => expect(Object.keys(d as object)).toEqual(['changedAt']) },
];

/** The table's row label, as docs/security.md shows it. */
function label(row: Row): string {
  return `\`${row.route}\`${row.stream ? ' (live stream)' : ''}${row.target ? ` — ${row.target}` : ''}`;
}

// ---- fixtures ----

async function call(ctx: TestContext, cookie: string | undefined, req: Request, expected: number) {
  const res = await ctx.app.inject({
    method: req.method,
    url: req.url,
    headers: cookie ? { cookie } : {},
    ...(req.body ? { payload: req.body } : {}),
  });
  expect(res.statusCode, `${req.method} ${req.url}: ${res.body}`).toBe(expected);
  return res;
}

async function party(
  ctx: TestContext,
  role: 'customer' | 'kitchen' | 'operator',
  name: string,
  email?: string,
): Promise<Signed> {
  const { user, cookie } = await signedIn(ctx, role, { displayName: name, ...(email ? { email } : {}) });
  return { user, cookie, token: cookie.slice(cookie.indexOf('=') + 1) };
}

/** A fresh world, built through the API: X and Y with a kitchen and an item, A's order at X, B's at Y. */
async function buildWorld(ctx: TestContext): Promise<World> {
  const tag = randomUUID().slice(0, 8);
  // What does not depend on another step is made side by side (on PostgreSQL their round trips overlap).
  const [A, B, X, Y, O] = await Promise.all([
    party(ctx, 'customer', `Customer A ${tag}`),
    party(ctx, 'customer', `Customer B ${tag}`),
    party(ctx, 'kitchen', `Owner X ${tag}`),
    party(ctx, 'kitchen', `Owner Y ${tag}`),
    party(ctx, 'operator', `Operator O ${tag}`, OPERATOR_EMAIL),
  ]);
  const parties = { A, B, X, Y, O };
  const post = async <T>(cookie: string, url: string, body: Record<string, unknown>) =>
    (await call(ctx, cookie, { method: 'POST', url, body }, 201)).json<T>();
  // A cook's kitchen, then its dish and (card payments are on and no cook has set up payouts) cash on delivery, so
  // orders are paid as before.
  const kitchenOf = async (owner: Signed, name: string) => {
    const kitchen = await post<Kitchen>(owner.cookie, '/api/kitchen', kitchenBody(`Kitchen ${name} ${tag}`));
    const [item] = await Promise.all([
      post<MenuItem>(owner.cookie, '/api/kitchen/menu', itemBody(`Dish ${name} ${tag}`)),
      call(
        ctx,
        owner.cookie,
        { method: 'PUT', url: '/api/kitchen/payouts/cash', body: { acceptsCash: true } },
        200,
      ),
    ]);
    return { kitchen, item };
  };
  const [{ kitchen: kitchenX, item: itemX }, { kitchen: kitchenY, item: itemY }] = await Promise.all([
    kitchenOf(X, 'X'),
    kitchenOf(Y, 'Y'),
  ]);
  const order = (who: Signed, kitchen: Kitchen, item: MenuItem, address: string) =>
    post<CustomerOrder>(who.cookie, '/api/orders', {
      kitchenUid: kitchen.uid,
      itemIds: [item.id],
      address,
      idempotencyKey: `world-${randomUUID()}`,
    });
  const [orderA, orderB, messageA] = await Promise.all([
    order(A, kitchenX, itemX, `1 A Street ${tag}`),
    order(B, kitchenY, itemY, `2 B Street ${tag}`),
    post<ChatMessage>(A.cookie, '/api/chat', { text: `A was here ${tag}` }),
  ]);
  return { tag, parties, kitchenX, kitchenY, itemX, itemY, orderA, orderB, messageA };
}

/** X offers weekly plans, in hour-long slots of its all-day hours, and takes cash: a plan can be made there. */
async function offerPlans(ctx: TestContext, w: World) {
  await ctx.database.db
    .execute(sql`update kitchens set plans_offered = true, slot_minutes = 60, prior_notice_minutes = 60,
    days_ahead = 2, accepts_cash = true where owner_id = ${w.kitchenX.uid}`);
}

/** Tomorrow at noon, UTC (X's zone): one of X's hour-long slots once it offers them. */
const tomorrowNoon = () => `${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T12:00:00.000Z`;

// ---- what a call may change, and what an actor may see ----

const TABLES = [
  'users',
  'sessions',
  'kitchens',
  'menu_items',
  'orders',
  'order_items',
  'order_events',
  'chat_messages',
  'images',
  'image_variants',
  'reviews',
  'reports',
  'operator_actions',
  'ledger_entries',
  'order_refunds',
  'order_disputes',
  'problem_reports',
  'problem_report_photos',
  'order_tips',
  'payment_events',
  'order_messages',
  'notification_settings',
  'push_subscriptions',
  'allergy_profiles',
  'dish_declarations',
  'meal_plans',
  'meal_plan_weeks',
  'promo_codes',
  'promo_code_uses',
] as const;
type Table = (typeof TABLES)[number];

/**
 * The world's order the actor is a party to (A's at X, B's at Y): still theirs once a deleted account no longer
 * names them in it (its customer_id or kitchen_id set null).
 */
const worldOrderOf = (actor: Party, w: World) => (actor === 'A' || actor === 'X' ? w.orderA.id : w.orderB.id);

/**
 * The rows of `table` that `actor` may change: its own sessions, kitchen, menu, orders, messages, reports and
 * (an operator) the record of its actions.
 */
function own(table: Table, actor: Actor, w: World): SQL {
  if (actor === 'anonymous') return sql`false`;
  const id = w.parties[actor].user.id;
  switch (table) {
    case 'reports':
      return sql`t.reporter_id = ${id}`;
    case 'operator_actions':
      return sql`t.operator_id = ${id}`;
    case 'users':
      // Only 'Delete my account' changes one: the actor's own.
      return sql`t.id = ${id}`;
    case 'sessions':
    case 'chat_messages':
    case 'notification_settings':
    case 'push_subscriptions':
    case 'allergy_profiles':
      return sql`t.user_id = ${id}`;
    case 'dish_declarations':
      return sql`t.menu_item_id in (select m.id from menu_items m where m.kitchen_id = ${id})`;
    case 'kitchens':
      return sql`t.owner_id = ${id}`;
    case 'menu_items':
      return sql`t.kitchen_id = ${id}`;
    case 'orders':
      return sql`(t.kitchen_id = ${id} or t.customer_id = ${id} or t.id = ${worldOrderOf(actor, w)})`;
    case 'order_items':
    case 'order_events':
    case 'order_messages':
      return sql`t.order_id in (select o.id from orders o
        where o.kitchen_id = ${id} or o.customer_id = ${id} or o.id = ${worldOrderOf(actor, w)})`;
    case 'images':
      return sql`t.owner_id = ${id}`;
    case 'image_variants':
      return sql`t.image_id in (select i.id from images i where i.owner_id = ${id})`;
    case 'reviews':
      // A customer's own reviews; the cook's replies to their kitchen's.
      return sql`(t.customer_id = ${id} or t.kitchen_id = ${id})`;
    case 'ledger_entries':
    case 'order_refunds':
    case 'order_disputes':
    case 'problem_reports':
    case 'order_tips':
      // The money of the actor's own orders (a cash order delivered, a card payment's steps).
      return sql`t.order_id in (select o.id from orders o
        where o.kitchen_id = ${id} or o.customer_id = ${id} or o.id = ${worldOrderOf(actor, w)})`;
    case 'problem_report_photos':
      return sql`t.report_id in (select r.id from problem_reports r join orders o on o.id = r.order_id
        where o.kitchen_id = ${id} or o.customer_id = ${id} or o.id = ${worldOrderOf(actor, w)})`;
    case 'meal_plans':
      // A customer's own plans (a cook reads their kitchen's, and changes none).
      return sql`t.customer_id = ${id}`;
    case 'meal_plan_weeks':
      return sql`t.plan_id in (select p.id from meal_plans p where p.customer_id = ${id})`;
    case 'promo_codes':
      // The codes an actor made (an operator's), and a cook's own kitchen's.
      return sql`(t.created_by = ${id} or (t.paid_by = 'kitchen' and t.kitchen_id = ${id}))`;
    case 'promo_code_uses':
      return sql`t.order_id in (select o.id from orders o
        where o.kitchen_id = ${id} or o.customer_id = ${id} or o.id = ${worldOrderOf(actor, w)})`;
    case 'payment_events':
      // Only the payment provider's signed events write here: no session owns a row.
      return sql`false`;
  }
}

/**
 * A fingerprint of every table, leaving out the rows `actor` may change ('anonymous': nothing left out, so
 * the whole database), and those `also` names.
 */
async function fingerprint(
  ctx: TestContext,
  w: World,
  actor: Actor,
  also: Partial<Record<Table, SQL>> = {},
): Promise<string> {
  return fingerprintTables(
    ctx.database.db,
    TABLES,
    (table) =>
      sql`not (${own(table as Table, actor, w)} or coalesce(${also[table as Table] ?? sql`false`}, false))`,
  );
}

/**
 * Every world's rows gone: the tables a world writes and every table that refers to them, deleted (as
 * src/server/test/test-database.ts empties a database: TRUNCATE makes new files for each table, over a second on
 * PostgreSQL), the foreign keys' triggers off as all of them are emptied at once.
 */
async function emptyWorlds(ctx: TestContext): Promise<void> {
  await ctx.app.payments.local?.settled();
  const names = TABLES.map((table) => `'${table}'`).join(', ');
  await ctx.database.db.execute(
    sql.raw(`do $$
declare
  name text;
begin
  set local session_replication_role = replica;
  for name in
    with recursive referring(rel) as (
      select c.oid from pg_class c where c.relname in (${names}) and c.relnamespace = 'public'::regnamespace
      union
      select f.conrelid from pg_constraint f join referring r on f.confrelid = r.rel where f.contype = 'f'
    )
    select rel::regclass::text from referring
  loop
    execute 'delete from ' || name;
  end loop;
end $$`),
  );
}

/** What must never appear in an answer to `actor`: others' orders, addresses, emails; any session token. */
function hiddenFrom(actor: Actor, w: World): string[] {
  const { A, B, X, Y, O } = w.parties;
  const secrets: [string, Actor[]][] = [
    [O.user.email, ['O']],
    [w.orderA.id, ['A', 'X']],
    [w.orderA.address, ['A', 'X']],
    [A.user.email, ['A', 'X']],
    [w.orderB.id, ['B', 'Y']],
    [w.orderB.address, ['B', 'Y']],
    [B.user.email, ['B', 'Y']],
    [X.user.email, ['X']],
    [Y.user.email, ['Y']],
    ...[A, B, X, Y, O].map((p): [string, Actor[]] => [p.token, []]),
  ];
  return secrets.filter(([, visibleTo]) => !visibleTo.includes(actor)).map(([secret]) => secret);
}

/** A stream that must be refused: its status, type and whole body (it must end without any event). */
function openRefusedStream(url: string, cookie: string | undefined) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = http.get(
      url,
      { headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}) } },
      (res) => {
        const status = res.statusCode ?? 0;
        const type = String(res.headers['content-type'] ?? '');
        if (status === 200) {
          // Opened when it should not have: report it rather than wait on a stream that never ends.
          req.destroy();
          resolve({ status, type, body: '' });
          return;
        }
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status, type, body }));
      },
    );
    req.setTimeout(5000, () => req.destroy(new Error('the refused stream did not end')));
    req.on('error', reject);
  });
}

// ---- running the table ----

describeEachEngine(
  'authorisation matrix',
  (get) => {
    let baseUrl: string;
    beforeAll(async () => {
      baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
    });

    for (const row of MATRIX)
      describe(label(row), () => {
        // The worlds of a row are emptied once its cells have run: each cell's fingerprint reads every row of the
        // database, so the rows of earlier worlds would make every later cell slower (the file took 84 s of CI's db
        // layer). Each cell still checks the whole database: its own world, the row's shared world and the worlds of
        // the row's cells before it.
        afterAll(() => emptyWorlds(get()));
        // A refusal changes nothing, and neither does a read, allowed or not (each one checks it): a row's refused
        // cells, and every cell of a read (GET), share one world, the same as a world of their own, built once. Each
        // allowed cell of a write gets a world of its own.
        const read = row.route.startsWith('GET ');
        let sharedWorld: Promise<World> | undefined;
        const worldFor = async (ctx: TestContext) => {
          const w = await buildWorld(ctx);
          await row.setUp?.(ctx, w);
          return w;
        };
        ACTORS.forEach((actor, column) => {
          const cell = row.cells[column];
          it(`${label(row)} — ${ACTOR_LABELS[actor]}: ${cell}`, async () => {
            const ctx = get();
            const changesNothing = cell !== 'allow' || read;
            const w = changesNothing ? await (sharedWorld ??= worldFor(ctx)) : await worldFor(ctx);
            const req = row.request(w);
            const cookie = actor === 'anonymous' ? undefined : w.parties[actor].cookie;
            const also = cell === 'allow' ? (row.alsoChanges?.(w) ?? {}) : {};
            // Two fingerprints a cell, before and after: of the whole database where nothing may change (a refusal, a
            // read: others' rows unchanged follows), of others' rows where the actor may change its own.
            const before = changesNothing
              ? await fingerprint(ctx, w, 'anonymous')
              : await fingerprint(ctx, w, actor, also);

            let status: number;
            let text: string;
            if (row.stream && cell === 'allow' && req.url.startsWith('/api/live?')) {
              // Every topic of the tab's stream answered (a snapshot, or a refusal naming its status): all of it is
              // searched for what the actor may not see.
              const stream = await openEventStream(`${baseUrl}${req.url}`, cookie ? { cookie } : {});
              try {
                await stream.waitFor((d) => typeof d === 'object' && d !== null && 'topics' in d);
                for (const topic of TAB_TOPICS)
                  await stream.waitFor((d) => (d as { topic?: string }).topic === topic);
                status = 200;
                text = stream.events.map((e) => e.data).join('\n');
              } finally {
                stream.close();
              }
            } else if (row.stream && cell === 'allow') {
              const stream = await openEventStream(`${baseUrl}${req.url}`, cookie ? { cookie } : {});
              try {
                await stream.waitFor(() => true);
                status = 200;
                text = stream.events[0]?.data ?? '';
              } finally {
                stream.close();
              }
            } else if (row.stream) {
              const answer = await openRefusedStream(`${baseUrl}${req.url}`, cookie);
              status = answer.status;
              text = answer.body;
              expect(answer.type).not.toContain('text/event-stream');
              expect(text).not.toMatch(/^data:/m);
            } else {
              const res = await ctx.app.inject({
                method: req.method,
                url: req.url,
                headers: {
                  ...(cookie ? { cookie } : {}),
                  ...(req.file ? { 'content-type': req.file.type } : {}),
                },
                ...(req.body ? { payload: req.body } : {}),
                ...(req.file ? { payload: req.file.bytes } : {}),
              });
              status = res.statusCode;
              text = res.body;
            }

            // What the call set off at the payment provider (a refund's `charge.refunded`) comes back to the webhook
            // before the fingerprints are taken, never during the next cell's.
            await ctx.app.payments.local?.settled();
            if (cell === 'allow') {
              expect(status, text).toBeGreaterThanOrEqual(200);
              expect(status, text).toBeLessThan(300);
              if (actor !== 'anonymous')
                await row.sees?.(text ? (JSON.parse(text) as unknown) : undefined, w, actor, ctx);
              // Whatever the actor changed, it was its own; a read changed nothing.
              if (read) expect(await fingerprint(ctx, w, 'anonymous')).toBe(before);
              else expect(await fingerprint(ctx, w, actor, also)).toBe(before);
            } else {
              expect([401, 403, 404, ...(row.refusedAlsoWith ? [row.refusedAlsoWith] : [])], text).toContain(
                status,
              );
              expect(await fingerprint(ctx, w, 'anonymous')).toBe(before);
            }
            const shown = cell === 'allow' ? (row.mayShow?.(w) ?? []) : [];
            for (const secret of hiddenFrom(actor, w).filter((s) => !shown.includes(s)))
              expect(text).not.toContain(secret);
          });
        });
      });

    it('agrees with what each route declares of who may call it, and covers every route that needs a session', () => {
      const declared = new Map<string, string>(
        registeredRoutes(get().app).map((r) => [`${r.method} ${r.url}`, r.doc?.cookie ?? 'none']),
      );
      // Who a session cookie of each kind leaves out (an operator's session is none of the others).
      const refusedBy: Record<string, readonly Actor[]> = {
        customer: ['anonymous', 'X', 'Y', 'O'],
        kitchen: ['anonymous', 'A', 'B', 'O'],
        any: ['anonymous', 'O'],
        operator: ['anonymous', 'A', 'B', 'X', 'Y'],
        'signed-in': ['anonymous'],
        none: [],
      };
      for (const row of MATRIX) {
        // (/metrics is registered only where a token or port is configured: not in this app.)
        if (row.route === 'GET /metrics') continue;
        const cookie = declared.get(row.route);
        expect(cookie, `${row.route} is in the matrix but not registered`).toBeDefined();
        for (const actor of refusedBy[cookie ?? 'none'] ?? [])
          expect(
            row.cells[ACTORS.indexOf(actor)],
            `${label(row)}, ${ACTOR_LABELS[actor]} (needs ${cookie})`,
          ).toBe(refuse);
      }
      const inMatrix = new Set<string>(MATRIX.map((row) => row.route));
      const needingSession = [...declared].filter(([, cookie]) => cookie !== 'none').map(([route]) => route);
      expect(needingSession.length).toBeGreaterThan(20);
      expect(needingSession.filter((route) => !inMatrix.has(route))).toEqual([]);
    });

    it("kitchen Y's and customer B's streams never carry X's or A's orders, as they change", async () => {
      const ctx = get();
      const w = await buildWorld(ctx);
      const { A, B, X, Y } = w.parties;
      const kitchenY = await openEventStream(`${baseUrl}/api/kitchen/orders`, { cookie: Y.cookie });
      // A query naming A changes nothing: the session decides whose order this is.
      const customerB = await openEventStream(`${baseUrl}/api/orders/mine?customer=${A.user.id}`, {
        cookie: B.cookie,
      });
      try {
        await kitchenY.waitFor(() => true);
        await customerB.waitFor(() => true);
        // A's order at X changes three times, X's menu twice; then A orders again.
        await call(
          ctx,
          X.cookie,
          { method: 'PATCH', url: `/api/kitchen/orders/${w.orderA.id}`, body: { status: 'Cooking' } },
          200,
        );
        await call(
          ctx,
          X.cookie,
          { method: 'PATCH', url: `/api/kitchen/menu/${w.itemX.id}`, body: { price: '3.00' } },
          200,
        );
        await call(ctx, X.cookie, { method: 'DELETE', url: `/api/kitchen/orders/${w.orderA.id}` }, 204);
        await call(
          ctx,
          X.cookie,
          { method: 'POST', url: '/api/kitchen/menu', body: itemBody(`More ${w.tag}`) },
          201,
        );
        const again = await call(
          ctx,
          A.cookie,
          {
            method: 'POST',
            url: '/api/orders',
            body: {
              kitchenUid: w.kitchenX.uid,
              itemIds: [w.itemX.id],
              address: w.orderA.address,
              idempotencyKey: `again-${randomUUID()}`,
            },
          },
          201,
        );
        const orderA2 = again.json<CustomerOrder>().id;
        // Then B's order changes: once both streams show that, anything sent before it has arrived too.
        await call(
          ctx,
          Y.cookie,
          { method: 'PATCH', url: `/api/kitchen/orders/${w.orderB.id}`, body: { status: 'Done soon' } },
          200,
        );
        await kitchenY.waitFor((d) =>
          (d as KitchenOrder[]).some((o) => o.id === w.orderB.id && o.status === 'Done soon'),
        );
        await customerB.waitFor((d) => (d as CustomerOrder | null)?.status === 'Done soon');
        for (const stream of [kitchenY, customerB]) {
          const text = stream.events.map((e) => e.data).join('\n');
          for (const secret of [w.orderA.id, orderA2, w.orderA.address, A.user.email, X.user.email])
            expect(text).not.toContain(secret);
          expect(text).toContain(w.orderB.id);
        }
      } finally {
        kitchenY.close();
        customerB.close();
      }
    });

    it("a session token works only under its own role's cookie", async () => {
      const ctx = get();
      const w = await buildWorld(ctx);
      const { A, X } = w.parties;
      const before = await fingerprint(ctx, w, 'anonymous');
      // X's kitchen token presented as a customer session; A's customer token as a kitchen session.
      const asCustomer = `customer_session=${X.token}`;
      const asKitchen = `kitchen_session=${A.token}`;
      await call(ctx, asCustomer, { method: 'GET', url: '/api/orders/mine' }, 401);
      await call(
        ctx,
        asCustomer,
        {
          method: 'POST',
          url: '/api/orders',
          body: {
            kitchenUid: w.kitchenY.uid,
            itemIds: [w.itemY.id],
            address: '3 Road',
            idempotencyKey: `x-${randomUUID()}`,
          },
        },
        401,
      );
      await call(ctx, asKitchen, { method: 'GET', url: '/api/kitchen/orders' }, 401);
      await call(
        ctx,
        asKitchen,
        { method: 'PATCH', url: `/api/kitchen/orders/${w.orderA.id}`, body: { status: 'Mine now' } },
        401,
      );
      const session = (
        await call(ctx, `${asCustomer}; ${asKitchen}`, { method: 'GET', url: '/api/session' }, 200)
      ).json<SessionState>();
      expect(session).toEqual({ kitchen: null, customer: null, operator: null });
      // An operator's token under a customer's cookie, and a customer's under the operator's, are nobody.
      const { O } = w.parties;
      await call(ctx, `operator_session=${A.token}`, { method: 'GET', url: '/api/operator/moderation' }, 401);
      await call(
        ctx,
        `operator_session=${X.token}`,
        { method: 'POST', url: `/api/operator/kitchens/${w.kitchenY.uid}/suspend`, body: {} },
        401,
      );
      await call(ctx, `customer_session=${O.token}`, { method: 'GET', url: '/api/orders/mine' }, 401);
      await call(ctx, `kitchen_session=${O.token}`, { method: 'GET', url: '/api/kitchen' }, 401);
      expect(await fingerprint(ctx, w, 'anonymous')).toBe(before);
    });
  },
  // Card payments on (the local provider), so that every payment route answers as it does in production.
  { OPERATOR_EMAILS: OPERATOR_EMAIL, PAYMENTS: 'local' },
);

// ---- docs/security.md shows this table ----

const mark = (cell: Cell) => (cell === 'allow' ? '✓' : '✗');

/** The table as docs/security.md renders it: routes as rows, the six actors as columns. */
function markdown(): string {
  const head = ['route', ...ACTORS.map((a) => ACTOR_LABELS[a])];
  const lines = [head, head.map(() => '---'), ...MATRIX.map((row) => [label(row), ...row.cells.map(mark)])];
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

describe('docs/security.md', () => {
  it('shows the authorisation matrix this file runs, cell for cell', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'security.md'), 'utf8');
    const section = doc.split(/^## /m).find((s) => s.startsWith('Security\n')) ?? '';
    const tableRows = section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .map((line) =>
        line
          .slice(1, -1)
          .split('|')
          .map((cell) => cell.trim()),
      )
      .filter((cells) => !cells.every((c) => /^:?-+:?$/.test(c)));
    const expected = [
      ['route', ...ACTORS.map((a) => ACTOR_LABELS[a])],
      ...MATRIX.map((row) => [label(row), ...row.cells.map(mark)]),
    ];
    expect(tableRows, `docs/security.md's "## Security" should hold this table:\n\n${markdown()}\n`).toEqual(
      expected,
    );
  });
});
