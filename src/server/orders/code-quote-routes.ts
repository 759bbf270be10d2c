import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CodeQuote, CodeQuoteInput } from '../../shared/promo-codes.js';
import { computeTotals } from '../../shared/money.js';
import { msg } from '../../shared/i18n/translator.js';
import { commissionOn, utcDay } from '../data/fee-changes.js';
import { requireUser } from '../identity/sessions.js';
import { badRequest } from '../lib/errors.js';
import { checkCode } from '../payments/promo-codes.js';
import { findKitchenAndItems } from './customer-order-queries.js';
import { platformFeeOf } from './order-payments.js';

/**
 * The cart's 'Apply': what a promotion code takes off this cart now and who pays it, by the same check and
 * arithmetic as placing the order (which checks again and takes it: ADR 30). 409 naming `code` with the reason.
 */
export const codeQuoteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/orders/code',
    {
      config: {
        doc: {
          summary:
            "The cart's 'Apply' of a promotion code: its discount on these dishes and who pays it (checked again when the order is placed)",
          cookie: 'customer',
          tags: ['orders'],
          errors: {
            400: 'A code that is not 3 to 32 letters, digits or - (field code); no such kitchen or dishes (kitchenUid, itemIds)',
            409: "CODE_REFUSED (field code): no such code, turned off, not started, expired, used up, used already, first orders only, another kitchen's, below its minimum",
          },
        },
      },
      schema: { body: CodeQuoteInput, response: { 200: CodeQuote } },
    },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      const { code, kitchenUid, itemIds } = request.body;
      const menu = await findKitchenAndItems(app.db, kitchenUid, itemIds);
      if (!menu) throw badRequest(msg('This kitchen does not exist'), 'kitchenUid');
      const found = new Map(menu.items.map((item) => [item.id, item]));
      const prices = itemIds.map((id) => found.get(id)?.priceCents);
      if (prices.some((price) => price === undefined))
        throw badRequest(msg("Some items are not on this kitchen's menu (any more)"), 'itemIds');
      const totals = computeTotals(prices.filter((price) => price !== undefined));
      const now = new Date(app.clock.now());
      const commission = (await commissionOn(app.db, app.payments.config.commissionPercent, utcDay(now)))
        .commissionPercent;
      const fee = platformFeeOf(totals, commission);
      const applied = await checkCode(
        app.db,
        code,
        {
          customerId: customer.id,
          kitchenUid,
          itemsCents: totals.itemsCents,
          commissionCents: Math.max(0, fee - totals.feesAndTaxCents),
          payment: app.payments.provider ? 'card' : 'cash',
          now,
          currency: app.payments.config.currency,
        },
        app.i18n.translator(request.locale),
      );
      return reply
        .header('cache-control', 'no-store')
        .send({ code: applied.code.code, discountCents: applied.discountCents, paidBy: applied.code.paidBy });
    },
  );
};
