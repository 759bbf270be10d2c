import { and, eq, isNull } from 'drizzle-orm';
import { commissionOn, utcDay } from '../data/fee-changes.js';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { paths } from '../../shared/paths.js';
import {
  CashSettingInput,
  TipsSettingInput,
  KitchenPayments,
  MarketplaceFees,
  OnboardingLink,
  PayoutSettings,
} from '../../shared/payments.js';
import { kitchens } from '../db/schema.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { mutate } from '../events/mutate.js';
import { notFound } from '../lib/errors.js';

const paymentsOff = () => notFound('Card payments are off on this marketplace');

async function payoutRow(app: FastifyInstance, kitchenUid: string) {
  const [row] = await app.db
    .select({
      account: kitchens.payoutAccountId,
      state: kitchens.payoutState,
      acceptsCash: kitchens.acceptsCash,
      acceptsTips: kitchens.acceptsTips,
      suspendedAt: kitchens.suspendedAt,
    })
    .from(kitchens)
    .where(eq(kitchens.ownerId, kitchenUid));
  return row;
}

const settingsOf = (
  app: FastifyInstance,
  row: { state: PayoutSettings['state']; acceptsCash: boolean; acceptsTips: boolean },
) => ({
  cardPayments: app.payments.provider !== undefined,
  state: row.state,
  acceptsCash: row.acceptsCash,
  acceptsTips: row.acceptsTips,
});

/**
 * 'Get paid': a cook connects their kitchen to the payment provider (Stripe's onboarding, through Account Links) and
 * chooses whether to take cash on delivery; and what a kitchen takes, for its menu page and the checkout.
 */
export const payoutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/fees',
    {
      config: {
        doc: {
          summary:
            "What selling here costs a cook: the platform's share of a card order's dishes (PLATFORM_COMMISSION_PERCENT), and whether cards are taken",
        },
      },
      schema: { response: { 200: MarketplaceFees } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        cardPayments: app.payments.provider !== undefined,
        ...(await commissionOn(
          app.db,
          app.payments.config.commissionPercent,
          utcDay(new Date(app.clock.now())),
        )),
      };
    },
  );

  app.get(
    '/api/kitchen/payouts',
    {
      config: { doc: { summary: "The cook's payouts and cash setting ('Get paid')", cookie: 'kitchen' } },
      schema: { response: { 200: PayoutSettings } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      reply.header('cache-control', 'no-store');
      const row = await payoutRow(app, kitchen.uid);
      if (!row) throw notFound('No kitchen');
      return settingsOf(app, row);
    },
  );

  app.post(
    '/api/kitchen/payouts/onboarding',
    {
      config: {
        doc: {
          summary: "Start (or go on with) the provider's onboarding: the page to send the cook to",
          cookie: 'kitchen',
          errors: { 404: 'Card payments are off' },
        },
      },
      schema: { response: { 200: OnboardingLink } },
    },
    async (request) => {
      const { kitchen, user } = await requireKitchen(request);
      const provider = app.payments.provider;
      if (!provider) throw paymentsOff();
      let account = (await payoutRow(app, kitchen.uid))?.account ?? null;
      if (!account) {
        // Idempotent by the kitchen: two clicks make one account. Stripe keeps an idempotency key 24 hours, so an
        // earlier attempt (its answer lost, or not stored) is looked up by the kitchen's metadata first.
        const [firstAttempt] = await app.db
          .update(kitchens)
          .set({ payoutAccountRequestedAt: new Date(app.clock.now()) })
          .where(and(eq(kitchens.ownerId, kitchen.uid), isNull(kitchens.payoutAccountRequestedAt)))
          .returning({ uid: kitchens.ownerId });
        const created =
          (firstAttempt ? undefined : await provider.findPayoutAccount(kitchen.uid)) ??
          (await provider.createPayoutAccount({ uid: kitchen.uid, email: user.email }));
        await app.db
          .update(kitchens)
          .set({ payoutAccountId: created })
          .where(and(eq(kitchens.ownerId, kitchen.uid), isNull(kitchens.payoutAccountId)));
        account = (await payoutRow(app, kitchen.uid))?.account ?? created;
      }
      const back = `${app.config.publicUrl}${paths.menuDashboard.href()}`;
      const url = await provider.onboardingUrl(account, {
        returnUrl: `${back}?payouts=return`,
        refreshUrl: `${back}?payouts=refresh`,
      });
      return { url };
    },
  );

  app.post(
    '/api/kitchen/payouts/refresh',
    {
      config: {
        doc: {
          summary: 'Ask the provider where the payouts stand now (back from its onboarding)',
          cookie: 'kitchen',
        },
      },
      schema: { response: { 200: PayoutSettings } },
    },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      const row = await payoutRow(app, kitchen.uid);
      if (!row) throw notFound('No kitchen');
      const provider = app.payments.provider;
      if (!provider || !row.account) return settingsOf(app, row);
      const state = await provider.payoutState(row.account);
      await mutate(app, async (tx, record) => {
        await tx.update(kitchens).set({ payoutState: state }).where(eq(kitchens.ownerId, kitchen.uid));
        record({ type: 'kitchen.updated', kitchenUid: kitchen.uid, zoneChanged: false });
      });
      return settingsOf(app, { ...row, state });
    },
  );

  app.put(
    '/api/kitchen/payouts/cash',
    {
      config: { doc: { summary: "'Accept cash on delivery', on or off", cookie: 'kitchen' } },
      schema: { body: CashSettingInput, response: { 200: PayoutSettings } },
    },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      await mutate(app, async (tx, record) => {
        await tx
          .update(kitchens)
          .set({ acceptsCash: request.body.acceptsCash })
          .where(eq(kitchens.ownerId, kitchen.uid));
        record({ type: 'kitchen.updated', kitchenUid: kitchen.uid, zoneChanged: false });
      });
      const row = await payoutRow(app, kitchen.uid);
      if (!row) throw notFound('No kitchen');
      return settingsOf(app, row);
    },
  );

  app.put(
    '/api/kitchen/payouts/tips',
    {
      config: {
        doc: {
          summary: "'Accept tips', on or off: customers tip at checkout and for 48 hours after delivery",
          cookie: 'kitchen',
        },
      },
      schema: { body: TipsSettingInput, response: { 200: PayoutSettings } },
    },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      await mutate(app, async (tx, record) => {
        await tx
          .update(kitchens)
          .set({ acceptsTips: request.body.acceptsTips })
          .where(eq(kitchens.ownerId, kitchen.uid));
        record({ type: 'kitchen.updated', kitchenUid: kitchen.uid, zoneChanged: false });
      });
      const row = await payoutRow(app, kitchen.uid);
      if (!row) throw notFound('No kitchen');
      return settingsOf(app, row);
    },
  );

  app.get(
    '/api/kitchens/:uid/payments',
    {
      config: {
        doc: {
          summary: 'How a kitchen can be paid: by card (its payouts are on), cash on delivery',
          errors: { 404: 'No such kitchen' },
        },
      },
      schema: { params: KitchenParams, response: { 200: KitchenPayments } },
    },
    async (request) => {
      const payments = await kitchenPaymentsAnswer(app, request.params.uid);
      if (!payments) throw notFound('No such kitchen');
      return payments;
    },
  );
};

/** What GET /api/kitchens/:uid/payments answers: how the kitchen can be paid; undefined for no such kitchen. */
export async function kitchenPaymentsAnswer(
  app: FastifyInstance,
  uid: string,
): Promise<KitchenPayments | undefined> {
  const row = await payoutRow(app, uid);
  if (!row) return undefined;
  // Suspended by an operator: it takes no order at all (its page says so).
  if (row.suspendedAt) return { card: false, cash: false, tips: false };
  // Without card payments every kitchen takes cash: it is the only way to pay.
  if (!app.payments.provider) return { card: false, cash: true, tips: false };
  const card = row.state === 'payouts-on' && row.account !== null;
  return { card, cash: row.acceptsCash, tips: card && row.acceptsTips };
}
