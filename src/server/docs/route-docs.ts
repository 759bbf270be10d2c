import { z, type ZodType } from 'zod';
import { ChatMessageList, HiddenChatMessageIds } from '../../shared/chat.js';
import { KitchenList, KitchenProfile } from '../../shared/kitchens.js';
import { ReviewList } from '../../shared/reviews.js';
import { MenuList } from '../../shared/menu.js';
import { ModerationView } from '../../shared/moderation.js';
import { CustomerOrder, CustomerOrderList, KitchenOrderList } from '../../shared/orders.js';

/** Which session cookie a route needs: the customer's, the kitchen's, either of them, or the operator's. */
export type Cookie = 'customer' | 'kitchen' | 'any' | 'operator';

export interface RouteDoc {
  summary: string;
  cookie?: Cookie;
  /** Needs `Authorization: Bearer $METRICS_TOKEN`. */
  token?: boolean;
  /** A live list: the same URL answers a server-sent event stream to `accept: text/event-stream`. */
  stream?: boolean;
  /** Answers the route's own schema does not declare (live lists, pages, empty answers), by status. */
  responses?: Record<number, ZodType | { description: string; type: string }>;
  /** The route's own error codes beyond the common ones (400 on bad input, 401, 403, 429, 503). */
  errors?: Record<number, string>;
  tags?: string[];
}

const html = (description: string) => ({ description, type: 'text/html' });
/** A kitchen's dishes and reviews: refused as missing when there is none, or to anyone but its cook and operators
 * while it is suspended. */
const SUSPENDED_OR_MISSING =
  'No such kitchen; or it is suspended, and the caller is neither its cook nor an operator';
const empty = { description: 'Done; no content', type: '' };
const redirect = (description: string) => ({ description, type: '' });

/**
 * What the OpenAPI document says of each route beyond its zod schemas: who may call it and what it answers when
 * the route itself does not declare it. The document lists every registered route by itself; a route missing
 * here fails tests/api/openapi.test.ts, so a new route comes with its line.
 */
export const routeDocs: Record<string, RouteDoc> = {
  'GET /healthz': {
    summary: 'Liveness: the process answers',
    tags: ['operations'],
    responses: { 200: z.object({ ok: z.literal(true) }) },
  },
  'GET /readyz': {
    summary: 'Readiness: the database answers (503 while it does not)',
    tags: ['operations'],
    responses: { 200: z.object({ ok: z.literal(true), database: z.enum(['pglite', 'postgres']) }) },
  },
  'GET /metrics': {
    summary: 'Prometheus metrics (bearer METRICS_TOKEN; with METRICS_PORT, served on that port instead)',
    tags: ['operations'],
    token: true,
    responses: { 200: { description: 'Prometheus text format', type: 'text/plain' } },
  },
  'GET /api/openapi.json': {
    summary: 'This document',
    tags: ['operations'],
    responses: { 200: z.looseObject({ openapi: z.literal('3.1.0') }) },
  },
  'GET /api/session': { summary: 'Who is signed in, as kitchen and as customer', tags: ['session'] },
  'GET /api/kitchens': { summary: 'Every kitchen', stream: true, responses: { 200: KitchenList } },
  'GET /api/kitchens/search': {
    summary: 'Kitchens by words (typos and accents forgiven), cuisine, dietary tags and distance',
    tags: ['discovery'],
  },
  'GET /api/kitchens/search/changes': {
    summary: 'When the searchable catalogue last changed (a page with an open search asks again)',
    tags: ['discovery'],
    stream: true,
    responses: { 200: z.object({ changedAt: z.string() }) },
  },
  'GET /api/kitchens/:uid': {
    summary:
      "One kitchen, with its hours, whether it is taking orders, its rating, 'About the cook' and orders delivered",
    stream: true,
    responses: { 200: KitchenProfile },
    errors: { 404: 'No such kitchen' },
  },
  'GET /api/kitchens/:uid/menu': {
    summary: "A kitchen's menu",
    stream: true,
    responses: { 200: MenuList },
    errors: { 404: SUSPENDED_OR_MISSING },
  },
  'GET /api/kitchens/:uid/reviews': {
    summary: "A kitchen's latest 50 reviews with the cook's replies, newest first",
    tags: ['reviews'],
    stream: true,
    responses: { 200: ReviewList },
    errors: { 404: SUSPENDED_OR_MISSING },
  },
  'GET /api/kitchens/:uid/reviews/older': {
    summary: "The next 50 of a kitchen's reviews, older than the one `before` names ('Show older reviews')",
    tags: ['reviews'],
    errors: { 404: 'This kitchen has no review with this id, or it is suspended (as above)' },
  },
  'POST /api/orders/:id/review': {
    summary: "'Rate your order': 1–5 stars and an optional text, once, for one's delivered order",
    tags: ['reviews'],
    cookie: 'customer',
    errors: { 404: 'No such order of yours', 409: 'Not delivered yet, or already rated' },
  },
  'POST /api/kitchen/reviews/:id/reply': {
    summary: "The cook's one public reply to a review of their kitchen",
    tags: ['reviews'],
    cookie: 'kitchen',
    errors: { 404: 'No such review of your kitchen', 409: 'Already replied' },
  },
  'GET /api/geocode/settings': { summary: 'Which address geocoder the server uses' },
  'GET /api/geocode': { summary: 'Address suggestions for typed text (fewer a minute without a session)' },
  'POST /api/kitchen/pause': {
    summary: "'Pause new orders' (optionally until a time), or take them again",
    cookie: 'kitchen',
  },
  'GET /api/kitchen/check': { summary: "The signed-in owner's kitchen, or null", cookie: 'kitchen' },
  'GET /api/kitchen': {
    summary: "The signed-in owner's kitchen",
    cookie: 'kitchen',
    errors: { 404: 'No kitchen yet' },
  },
  'POST /api/kitchen': {
    summary: 'Register a kitchen',
    cookie: 'kitchen',
    errors: { 409: 'Already has a kitchen' },
  },
  'PATCH /api/kitchen': {
    summary: "Edit one's kitchen",
    cookie: 'kitchen',
    errors: { 404: 'No kitchen yet' },
  },
  'POST /api/kitchen/menu': { summary: 'Add a dish', cookie: 'kitchen', errors: { 404: 'No kitchen yet' } },
  'PATCH /api/kitchen/menu/:id': {
    summary: 'Edit a dish of one’s menu',
    cookie: 'kitchen',
    errors: { 404: 'Not a dish of your menu' },
  },
  'DELETE /api/kitchen/menu/:id': {
    summary: 'Delete a dish of one’s menu',
    cookie: 'kitchen',
    responses: { 204: empty },
    errors: { 404: 'Not a dish of your menu' },
  },
  'GET /api/kitchen/orders': {
    summary: "The owner's kitchen's orders in progress ('Active')",
    cookie: 'kitchen',
    stream: true,
    responses: { 200: KitchenOrderList },
  },
  'GET /api/kitchen/orders/past': {
    summary: "The owner's kitchen's ended and deleted orders ('Past'), the latest 100",
    cookie: 'kitchen',
    stream: true,
    responses: { 200: KitchenOrderList },
  },
  'POST /api/kitchen/orders/:id/moves': {
    summary:
      "Move an order of one's kitchen along its lifecycle (accept, decline, prepare, dispatch, deliver, cancel)",
    cookie: 'kitchen',
    errors: { 404: 'No such order at your kitchen', 409: 'Not possible in the order’s state (INVALID_MOVE)' },
  },
  'PATCH /api/kitchen/orders/:id': {
    summary: 'Set the free-text status of an order of one’s kitchen (its state stays)',
    cookie: 'kitchen',
    errors: { 404: 'No such order at your kitchen' },
  },
  'DELETE /api/kitchen/orders/:id': {
    summary: 'Take an order off one’s kitchen’s list (kept, in Past)',
    cookie: 'kitchen',
    responses: { 204: empty },
    errors: { 404: 'No such order at your kitchen' },
  },
  'POST /api/orders': {
    summary: 'Place an order (idempotent by its key: 200 for a repeat, 201 when new)',
    cookie: 'customer',
    errors: {
      404: 'No such kitchen or dish',
      409: 'An order is already open',
      422: 'Idempotency key reused',
    },
  },
  'GET /api/orders/mine': {
    summary: "The customer's order in progress, or else their latest, or null",
    cookie: 'customer',
    stream: true,
    responses: { 200: CustomerOrder.nullable() },
  },
  'GET /api/orders': {
    summary: "The customer's orders, newest first (the latest 100)",
    cookie: 'customer',
    stream: true,
    responses: { 200: CustomerOrderList },
  },
  'POST /api/orders/:id/cancel': {
    summary: 'Cancel one’s order while the kitchen has not accepted it',
    cookie: 'customer',
    errors: { 404: 'No such order of yours', 409: 'Not possible in the order’s state (INVALID_MOVE)' },
  },
  'GET /api/orders/:id/again': {
    summary: "One's order's dishes still on the menu, at today's prices, and those gone",
    cookie: 'customer',
    errors: { 404: 'No such order of yours' },
  },
  'POST /api/kitchen/images': {
    summary: 'Upload a picture (the bytes as the body: JPEG, PNG, WebP or AVIF, 10 MB at most)',
    cookie: 'kitchen',
    errors: { 413: 'Larger than 10 MB or 50 megapixels', 415: 'Not a picture we read' },
  },
  'GET /images/:file': {
    summary: 'A stored picture size, `{id}-{width}.webp` (immutable, cached for a year)',
    tags: ['pictures'],
    responses: {
      200: { description: 'The picture', type: 'image/webp' },
      304: { description: 'Not modified (ETag)', type: '' },
    },
    errors: { 404: 'No picture by this name' },
  },
  'GET /api/chat': {
    summary: "The chat room's latest messages",
    cookie: 'any',
    stream: true,
    responses: { 200: ChatMessageList },
  },
  'GET /api/live': {
    summary:
      "The tab's one live stream: `?t=<url>` per live list it watches (`#<etag>` after one it holds); each topic's snapshots tagged with it, `ended`/`missing` when one is refused or gone",
    tags: ['live'],
    responses: {
      200: {
        description: 'A server-sent event stream (ask for text/event-stream)',
        type: 'text/event-stream',
      },
    },
    errors: { 429: 'This session or address holds too many open streams (with Retry-After)' },
  },
  'GET /api/chat/hidden': {
    summary:
      'The ids of the chat messages operators hid or that went with a deleted account, lately (an open chat drops them)',
    cookie: 'any',
    stream: true,
    responses: { 200: HiddenChatMessageIds },
  },
  'GET /api/chat/history': { summary: 'Older chat messages', cookie: 'any' },
  'POST /api/chat': { summary: 'Say something in the chat (5 messages in 10 s)', cookie: 'any' },
  'POST /api/reports': {
    summary: 'Report a chat message, a review or a kitchen to the operators (10 reports in 10 minutes)',
    cookie: 'any',
    tags: ['moderation'],
    errors: {
      404: 'No such chat message, review or kitchen (field targetId)',
      409: 'ALREADY_REPORTED: your report of this is still open',
    },
  },
  'GET /api/operator/moderation': {
    summary: "The operator's page: open reports (newest first), suspended kitchens, recent actions",
    cookie: 'operator',
    stream: true,
    tags: ['moderation'],
    responses: { 200: ModerationView },
    errors: { 403: 'The email is no longer listed in OPERATOR_EMAILS' },
  },
  'POST /api/operator/chat-messages/:id/hide': {
    summary: 'Hide a chat message for everyone (closes its open reports)',
    cookie: 'operator',
    tags: ['moderation'],
    errors: { 404: 'No such chat message' },
  },
  'POST /api/operator/reviews/:id/hide': {
    summary: 'Hide a review for everyone (closes its open reports)',
    cookie: 'operator',
    tags: ['moderation'],
    errors: { 404: 'No such review' },
  },
  'POST /api/operator/kitchens/:uid/suspend': {
    summary: 'Suspend a kitchen: off the list and search, no orders (closes its open reports)',
    cookie: 'operator',
    tags: ['moderation'],
    errors: { 404: 'No such kitchen' },
  },
  'POST /api/operator/kitchens/:uid/lift-suspension': {
    summary: "Lift a kitchen's suspension",
    cookie: 'operator',
    tags: ['moderation'],
    errors: { 404: 'No such kitchen' },
  },
  'POST /api/operator/reports/:id/close': {
    summary: 'Close a report without acting on what it names',
    cookie: 'operator',
    tags: ['moderation'],
    errors: { 404: 'No such report' },
  },
  'GET /auth/:role/start': {
    summary: 'Start signing in with Google (a page the browser opens, often a popup)',
    tags: ['sign-in'],
    responses: { 302: redirect('To the identity provider') },
  },
  'GET /auth/callback': {
    summary: 'Where the identity provider sends the browser back; sets the session cookie',
    tags: ['sign-in'],
    responses: { 302: redirect('To the page that tells the opening tab') },
  },
  'GET /auth/done': {
    summary: 'Tells the opening tab and closes the popup',
    tags: ['sign-in'],
    responses: { 200: html('The page') },
  },
  'GET /auth/done.js': {
    summary: 'The script of /auth/done',
    tags: ['sign-in'],
    responses: { 200: { description: 'The script', type: 'text/javascript' } },
  },
  'GET /api/account/:role/export': {
    summary:
      "Download my data: everything held about the signed-in user (the role's session), as a JSON file attachment",
    tags: ['your data'],
    cookie: 'any',
  },
  'DELETE /api/account/:role': {
    summary:
      "Delete my account (the role's session): sessions, chat, reviews, kitchen, menu and pictures go; orders stay, anonymised",
    tags: ['your data'],
    cookie: 'any',
    responses: { 204: empty },
    errors: { 409: 'An order placed or received is still in progress' },
  },
  'POST /auth/:role/sign-out': {
    summary: 'Sign out of a role',
    tags: ['sign-in'],
    responses: { 204: empty },
  },
  'GET /sitemap.xml': {
    summary: "For search engines: the landing page and every kitchen's page",
    tags: ['web app'],
    responses: { 200: { description: 'A sitemap (sitemaps.org)', type: 'application/xml' } },
  },
  'GET /robots.txt': {
    summary: 'For search engines: everything may be crawled; where the sitemap is',
    tags: ['web app'],
    responses: { 200: { description: 'robots.txt', type: 'text/plain' } },
  },
  'GET /favicon.ico': {
    summary: 'Our icon',
    tags: ['web app'],
    responses: { 301: redirect('To /favicon.svg') },
  },
};
