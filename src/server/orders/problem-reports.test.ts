import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { StoredImage } from '../../shared/images.js';
import type { CustomerOrder, KitchenOrder } from '../../shared/orders.js';
import type { OperatorProblemReport, ProblemReport } from '../../shared/problem-reports.js';
import type { OrderRefund } from '../../shared/refunds.js';
import { images, orderEvents, problemReports, reports } from '../db/schema.js';
import { sweepAbandonedImages } from '../images/image-sweep.js';
import { FakeClock } from '../test/fake-clock.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';
import { deliveredCardOrder, paidOrder } from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { makePicture } from '../test/test-images.js';

const clock = new FakeClock();
clock.advance(Date.now());
/** Sets the fake clock to `at` (either way): the window is measured from the delivery the database recorded. */
const setClock = (at: number) => clock.advance(at - clock.now());

const HOUR = 60 * 60 * 1000;
const DAL = { item: 'Dal', priceCents: 950 };

describeEachEngine(
  'problem reports of a delivered order',
  (get) => {
    /** A card order of 2 × Dal (9.50) paid, accepted, prepared, dispatched and delivered; when it was delivered. */
    async function deliveredOrder(ctx: TestContext) {
      const paid = await deliveredCardOrder(ctx);
      const [delivered] = await ctx.database.db
        .select({ at: orderEvents.createdAt })
        .from(orderEvents)
        .where(and(eq(orderEvents.orderId, paid.order.id), eq(orderEvents.state, 'delivered')));
      setClock(Date.now());
      return { ...paid, deliveredAt: delivered?.at ?? new Date() };
    }

    const report = (cookie: string, orderId: string, body: Record<string, unknown>) =>
      get().app.inject({
        method: 'POST',
        url: `/api/orders/${orderId}/problem`,
        headers: { cookie },
        payload: body,
      });
    const upload = async (cookie: string) => {
      const res = await get().app.inject({
        method: 'POST',
        url: '/api/customer/images',
        headers: { cookie, 'content-type': 'image/jpeg' },
        payload: await makePicture('jpeg', 400, 300),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<StoredImage>();
    };
    const customerOrder = async (cookie: string, id: string) => {
      const res = await get().app.inject({ method: 'GET', url: '/api/orders', headers: { cookie } });
      return res.json<CustomerOrder[]>().find((o) => o.id === id);
    };
    const kitchenOrder = async (cookie: string, id: string) => {
      const res = await get().app.inject({
        method: 'GET',
        url: '/api/kitchen/orders/past',
        headers: { cookie },
      });
      return res.json<KitchenOrder[]>().find((o) => o.id === id);
    };

    it("a problem's photo is seen by the customer, the order's kitchen and operators only, never by its address", async () => {
      const ctx = get();
      const { cook, customer, order } = await deliveredOrder(ctx);
      const photo = await upload(customer.cookie);
      const picture = `/images/${photo.id}-${photo.widths[0]}.webp`;
      const viewer = async (cookie?: string) => {
        const res = await ctx.app.inject({ url: picture, headers: cookie ? { cookie } : {} });
        return res.statusCode === 200 ? `${res.statusCode} ${res.headers['cache-control']}` : res.statusCode;
      };
      const stranger = await signedIn(ctx, 'customer');
      const otherCook = await signedIn(ctx, 'kitchen');
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const shown = '200 private, max-age=3600';

      // Uploaded, not yet attached: its uploader's alone (and the operators').
      expect(await viewer(customer.cookie)).toBe(shown);
      expect(await viewer(cook.cookie)).toBe(404);

      const filed = await report(customer.cookie, order.id, {
        reason: 'missing',
        dishes: [{ ...DAL, quantity: 1 }],
        details: 'One dal was not in the bag',
        photoIds: [photo.id],
      });
      expect(filed.statusCode, filed.body).toBe(201);
      expect(await viewer(customer.cookie)).toBe(shown);
      expect(await viewer(cook.cookie)).toBe(shown);
      expect(await viewer(operator.cookie)).toBe(shown);
      for (const other of [undefined, stranger.cookie, otherCook.cookie])
        expect(await viewer(other)).toBe(404);
      // Its name known, an ETag guessed: still nothing for a stranger.
      const guessed = await ctx.app.inject({
        url: picture,
        headers: { 'if-none-match': `"${photo.id}-${photo.widths[0]}"` },
      });
      expect(guessed.statusCode).toBe(404);
      // A cook's pictures stay public, cached by anyone for a year.
      const dish = await ctx.app.inject({
        method: 'POST',
        url: '/api/kitchen/images',
        headers: { cookie: cook.cookie, 'content-type': 'image/jpeg' },
        payload: await makePicture('jpeg', 400, 300),
      });
      const kitchenPicture = dish.json<StoredImage>();
      const open = await ctx.app.inject({
        url: `/images/${kitchenPicture.id}-${kitchenPicture.widths[0]}.webp`,
      });
      expect(open.statusCode).toBe(200);
      expect(open.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it('files a missing dish with a photo: the kitchen sees it, one at a time, and a refund of the dish answers it', async () => {
      const ctx = get();
      const { cook, customer, order } = await deliveredOrder(ctx);
      const photo = await upload(customer.cookie);
      const filed = await report(customer.cookie, order.id, {
        reason: 'missing',
        dishes: [{ ...DAL, quantity: 1 }],
        details: 'One dal was not in the bag',
        photoIds: [photo.id],
      });
      expect(filed.statusCode, filed.body).toBe(201);
      const problem = filed.json<ProblemReport>();
      expect(problem).toMatchObject({
        reason: 'missing',
        dishes: [{ ...DAL, quantity: 1 }],
        details: 'One dal was not in the bag',
        photos: [photo],
        resolvedAt: null,
      });

      // Its kitchen sees it on the order; the customer too, with until when they could report.
      expect((await kitchenOrder(cook.cookie, order.id))?.problem).toEqual(problem);
      const mine = await customerOrder(customer.cookie, order.id);
      expect(mine?.problem).toEqual(problem);
      expect(mine?.problemReportUntil).toBeTruthy();
      // The photo it holds is no longer an abandoned upload: a day later the sweep keeps it.
      const sweepClock = new FakeClock();
      sweepClock.advance(Date.now() + 25 * HOUR);
      expect(await sweepAbandonedImages(ctx.app, sweepClock)).not.toContain(photo.id);
      expect(await ctx.database.db.select().from(images).where(eq(images.id, photo.id))).toHaveLength(1);

      // One open report per order.
      const again = await report(customer.cookie, order.id, {
        reason: 'other',
        dishes: [{ ...DAL, quantity: 1 }],
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'PROBLEM_ALREADY_REPORTED' });

      // Operators see it on their list.
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const list = await ctx.app.inject({
        method: 'GET',
        url: '/api/operator/problem-reports',
        headers: { cookie: operator.cookie },
      });
      expect(list.statusCode).toBe(200);
      expect(list.json<OperatorProblemReport[]>().find((r) => r.id === problem.id)).toMatchObject({
        orderId: order.id,
        totalCents: order.totalCents,
      });

      // The cook refunds the dish reported: the report is answered, and the customer sees the refund.
      const refund = await ctx.app.inject({
        method: 'POST',
        url: `/api/kitchen/orders/${order.id}/refunds`,
        headers: { cookie: cook.cookie },
        payload: { key: randomUUID(), dishes: problem.dishes, reason: 'Missing' },
      });
      expect(refund.statusCode, refund.body).toBe(200);
      expect(refund.json<OrderRefund>()).toMatchObject({ amountCents: 950, state: 'refunded' });
      const after = await customerOrder(customer.cookie, order.id);
      expect(after?.problem?.resolvedAt).toBeTruthy();
      expect(after?.payment.refunds).toMatchObject([{ amountCents: 950, state: 'refunded' }]);
      const open = await ctx.app.inject({
        method: 'GET',
        url: '/api/operator/problem-reports',
        headers: { cookie: operator.cookie },
      });
      expect(open.json<OperatorProblemReport[]>().map((r) => r.id)).not.toContain(problem.id);
      // Answered, another problem may be reported.
      const next = await report(customer.cookie, order.id, {
        reason: 'cold_or_spilled',
        dishes: [{ ...DAL, quantity: 1 }],
      });
      expect(next.statusCode, next.body).toBe(201);
    });

    it('lets only the order’s customer report, and names the field of bad input', async () => {
      const ctx = get();
      const { cook, customer, order } = await deliveredOrder(ctx);
      const stranger = await signedIn(ctx, 'customer');
      const one = { reason: 'missing', dishes: [{ ...DAL, quantity: 1 }] };
      expect((await report(stranger.cookie, order.id, one)).statusCode).toBe(404);
      // A cook's session is not the customer's.
      expect((await report(cook.cookie, order.id, one)).statusCode).toBe(401);
      const strangersPhoto = await upload(stranger.cookie);
      const cases = [
        [{ ...one, reason: 'late' }, 'reason'],
        [{ ...one, dishes: [] }, 'dishes'],
        [{ ...one, dishes: [{ item: 'Pizza', priceCents: 950, quantity: 1 }] }, 'dishes'],
        [{ ...one, dishes: [{ ...DAL, quantity: 3 }] }, 'dishes'],
        [
          {
            ...one,
            dishes: [
              { ...DAL, quantity: 2 },
              { ...DAL, quantity: 1 },
            ],
          },
          'dishes',
        ],
        [{ ...one, photoIds: [strangersPhoto.id] }, 'photoIds'],
        [{ ...one, photoIds: [randomUUID(), randomUUID(), randomUUID(), randomUUID()] }, 'photoIds'],
        [{ ...one, details: 'x'.repeat(1001) }, 'details'],
      ] as const;
      for (const [body, field] of cases) {
        const res = await report(customer.cookie, order.id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json(), JSON.stringify(body)).toMatchObject({ field });
      }
      expect(
        await ctx.database.db.select().from(problemReports).where(eq(problemReports.orderId, order.id)),
      ).toEqual([]);
      // Both dishes of the order are fine.
      const both = await report(customer.cookie, order.id, { ...one, dishes: [{ ...DAL, quantity: 2 }] });
      expect(both.statusCode, both.body).toBe(201);
    });

    it('is refused before delivery and after 48 hours of it, by the clock', async () => {
      const ctx = get();
      const paid = await paidOrder(ctx);
      const one = { reason: 'missing', dishes: [{ ...DAL, quantity: 1 }] };
      const early = await report(paid.customer.cookie, paid.order.id, one);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ code: 'PROBLEM_REPORT_CLOSED' });

      const late = await deliveredOrder(ctx);
      setClock(late.deliveredAt.getTime() + 48 * HOUR + 1000);
      const refused = await report(late.customer.cookie, late.order.id, one);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'PROBLEM_REPORT_CLOSED' });
      setClock(late.deliveredAt.getTime() + 48 * HOUR - 1000);
      const inTime = await report(late.customer.cookie, late.order.id, one);
      expect(inTime.statusCode, inTime.body).toBe(201);
      setClock(Date.now());
    });

    it("'Made me ill' also files a food-safety complaint about the kitchen for the operators", async () => {
      const ctx = get();
      const { cook, customer, order } = await deliveredOrder(ctx);
      const filed = await report(customer.cookie, order.id, {
        reason: 'made_ill',
        dishes: [{ ...DAL, quantity: 2 }],
        details: 'Sick all night after the dal',
      });
      expect(filed.statusCode, filed.body).toBe(201);
      const [row] = await ctx.database.db
        .select()
        .from(problemReports)
        .where(eq(problemReports.id, filed.json<ProblemReport>().id));
      expect(row?.complaintId).toBeTruthy();
      const [complaint] = await ctx.database.db
        .select()
        .from(reports)
        .where(eq(reports.id, row?.complaintId ?? ''));
      expect(complaint).toMatchObject({ targetKind: 'kitchen', targetId: cook.kitchen.uid, closedAt: null });
      expect(complaint?.reason).toContain('Food safety');
      expect(complaint?.reason).toContain('Sick all night after the dal');
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const page = await ctx.app.inject({
        method: 'GET',
        url: '/api/operator/moderation',
        headers: { cookie: operator.cookie },
      });
      expect(page.body).toContain('Sick all night after the dal');
    });

    it('closes a report without a refund, the cook’s or an operator’s, with a reason the customer reads', async () => {
      const ctx = get();
      const { cook, customer, order } = await deliveredOrder(ctx);
      const problem = { reason: 'cold_or_spilled', dishes: [{ ...DAL, quantity: 1 }], details: 'Cold' };
      expect((await report(customer.cookie, order.id, problem)).statusCode).toBe(201);
      const close = (cookie: string, url: string, body: Record<string, unknown>) =>
        ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload: body });
      const kitchenUrl = `/api/kitchen/orders/${order.id}/problem/close`;
      // No reason: 400 naming it. Another kitchen, or the customer: refused.
      const empty = await close(cook.cookie, kitchenUrl, { reason: '  ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ field: 'reason' });
      const other = await signedIn(ctx, 'kitchen');
      expect((await close(other.cookie, kitchenUrl, { reason: 'Not mine' })).statusCode).toBe(404);
      expect((await close(customer.cookie, kitchenUrl, { reason: 'Me' })).statusCode).toBe(401);
      const closed = await close(cook.cookie, kitchenUrl, { reason: 'It left here hot; sorry it was cold' });
      expect(closed.statusCode, closed.body).toBe(200);
      expect(closed.json<ProblemReport>()).toMatchObject({
        closedBy: 'kitchen',
        closedReason: 'It left here hot; sorry it was cold',
      });
      expect((await customerOrder(customer.cookie, order.id))?.problem).toMatchObject({
        closedReason: 'It left here hot; sorry it was cold',
        resolvedAt: expect.any(String),
      });
      // Nothing open any more: 404; no money moved.
      expect((await close(cook.cookie, kitchenUrl, { reason: 'Again' })).statusCode).toBe(404);
      expect(
        (await ctx.database.db.select().from(problemReports).where(eq(problemReports.orderId, order.id)))
          .length,
      ).toBe(1);
      // The customer may report again; an operator closes that one.
      expect((await report(customer.cookie, order.id, { ...problem, reason: 'other' })).statusCode).toBe(201);
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const byOperator = await close(operator.cookie, `/api/operator/orders/${order.id}/problem/close`, {
        reason: 'Checked with the kitchen: delivered as ordered',
      });
      expect(byOperator.statusCode, byOperator.body).toBe(200);
      expect(byOperator.json<ProblemReport>()).toMatchObject({ closedBy: 'operator' });
      expect((await kitchenOrder(cook.cookie, order.id))?.problem).toMatchObject({ closedBy: 'operator' });
    });
  },
  { PAYMENTS: 'local', ...operatorEnv },
  { clock },
);
