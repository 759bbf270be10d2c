import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { readTopic } from './live/live-route.js';
import { etagOf } from './live/hub.js';
import type { KitchenPageQuery } from './pages/page-routes.js';
import { reviewsTopic } from './reviews/reviews-topic.js';
import { accountRoutes } from './account/account-routes.js';
import { allergyRoutes } from './account/allergy-routes.js';
import { creditRoutes } from './account/credit-routes.js';
import { sessionRoutes } from './auth/session-routes.js';
import { chatRoutes } from './chat/chat-routes.js';
import { geocodeRoutes } from './geocode/geocode-routes.js';
import { imageUploadRoutes } from './images/image-upload-routes.js';
import { kitchenRoutes } from './kitchens/kitchen-routes.js';
import { ownKitchenRoutes } from './kitchens/own-kitchen-routes.js';
import { orderingRoutes } from './kitchens/ordering-routes.js';
import { documentFileServeRoutes, documentFileUploadRoutes } from './law/document-file-routes.js';
import { lawRoutes } from './law/law-routes.js';
import { registerOriginCheck } from './lib/origin-check.js';
import { registerRateLimit } from './identity/rate-limit.js';
import { moderationRoutes } from './moderation/moderation-routes.js';
import { menuRoutes } from './menu/menu-routes.js';
import { searchRoutes } from './search/search-routes.js';
import { ownMenuRoutes } from './menu/own-menu-routes.js';
import { customerOrderRoutes } from './orders/customer-order-routes.js';
import { kitchenOrderRoutes } from './orders/kitchen-order-routes.js';
import { refundRoutes } from './orders/refund-routes.js';
import { planRoutes } from './orders/plan-routes.js';
import { problemReportRoutes } from './orders/problem-report-routes.js';
import { tipRoutes } from './orders/tip-routes.js';
import { receiptRoutes } from './orders/receipt-routes.js';
import { labelRoutes } from './labels/label-routes.js';
import { orderMessageRoutes } from './order-messages/order-message-routes.js';
import { currentSlots, slotRoutes } from './orders/slot-routes.js';
import { reviewRoutes } from './reviews/review-routes.js';
import { kitchenPaymentsAnswer, payoutRoutes } from './money/payout-routes.js';
import { earningsRoutes } from './money/earnings-routes.js';
import { moneyOverviewRoutes } from './money/money-overview-routes.js';
import { promoCodeRoutes } from './money/promo-code-routes.js';
import { codeQuoteRoutes } from './orders/code-quote-routes.js';
import { insightsRoutes } from './insights/insights-routes.js';
import { notificationSettingsRoutes } from './notifications/settings/settings-routes.js';
import { pushRoutes } from './notifications/push/push-routes.js';
import { notificationMailRoutes } from './notifications/mail/unsubscribe-routes.js';

/**
 * The JSON API (`/api/...`), in a plugin scope of its own: the CSRF origin check and the rate limits apply to its
 * routes only (the sign-in pages and the development provider have theirs), and its errors are JSON.
 */
export const apiRoutes: FastifyPluginAsync = async (api) => {
  registerOriginCheck(api, api.config.publicUrl);
  await registerRateLimit(api);
  await api.register(sessionRoutes);
  await api.register(searchRoutes);
  await api.register(kitchenRoutes);
  await api.register(menuRoutes);
  await api.register(ownKitchenRoutes);
  await api.register(orderingRoutes);
  await api.register(lawRoutes);
  await api.register(documentFileServeRoutes);
  await api.register(documentFileUploadRoutes);
  await api.register(ownMenuRoutes);
  await api.register(kitchenOrderRoutes);
  await api.register(refundRoutes);
  await api.register(problemReportRoutes);
  await api.register(tipRoutes);
  await api.register(codeQuoteRoutes);
  await api.register(promoCodeRoutes);
  await api.register(receiptRoutes);
  await api.register(labelRoutes);
  await api.register(customerOrderRoutes);
  await api.register(orderMessageRoutes);
  await api.register(slotRoutes);
  await api.register(planRoutes);
  await api.register(reviewRoutes);
  await api.register(geocodeRoutes);
  await api.register(chatRoutes);
  await api.register(imageUploadRoutes);
  await api.register(accountRoutes);
  await api.register(allergyRoutes);
  await api.register(creditRoutes);
  await api.register(moderationRoutes);
  await api.register(payoutRoutes);
  await api.register(earningsRoutes);
  await api.register(moneyOverviewRoutes);
  await api.register(insightsRoutes);
  await api.register(notificationSettingsRoutes);
  await api.register(pushRoutes);
  await api.register(notificationMailRoutes);
};

/**
 * What a kitchen's server-rendered page carries beyond its profile and menu, each answered by its feature as its
 * route would (the keys are the browser's queries: src/web/reviews/use-reviews.ts, ordering/use-kitchen-slots.ts,
 * payments/use-payments.ts). Rendered with the page, they are on screen at once: nothing appears later, pushing the
 * menu down, and the browser does not ask for them again as it hydrates.
 */
export const kitchenPageQueries = (app: FastifyInstance): KitchenPageQuery[] => [
  async (uid) => {
    const reviews = await readTopic(app, reviewsTopic, uid);
    return reviews.missing ? undefined : [['reviews', uid], reviews.json, etagOf(reviews)];
  },
  async (uid) => {
    const slots = await currentSlots(app, uid);
    return typeof slots === 'object' ? [['kitchens', uid, 'slots'], slots.json] : undefined;
  },
  async (uid) => {
    const payments = await kitchenPaymentsAnswer(app, uid);
    return payments ? [['kitchens', uid, 'payments'], JSON.stringify(payments)] : undefined;
  },
];
