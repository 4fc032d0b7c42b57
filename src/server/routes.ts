import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { healthRoutes } from '#server/features/health/health.routes';
import { authRoutes } from '#server/features/auth/auth.routes';
import { subscribeRoutes } from '#server/features/site/subscribe.routes';
import { qrcodeRoutes } from '#server/features/profile/qrcode.routes';
import { profileRoutes } from '#server/features/profile/profile.routes';
import { uploadsRoutes } from '#server/features/uploads/uploads.routes';
import { publicProfileRoutes } from '#server/features/profile/public-profile.routes';
import { reviewsRoutes } from '#server/features/reviews/reviews.routes';
import { accountRoutes } from '#server/features/account/account.routes';
import { orderRoutes } from '#server/features/orders/orders.routes';
import { shopifyRoutes } from '#server/features/shopify/shopify.routes';
import { adminRoutes } from '#server/features/admin/admin.routes';
import { templatesRoutes } from '#server/features/templates/templates.routes';
import { designReviewRoutes } from '#server/features/templates/design-review.routes';
import { aiRoutes } from '#server/features/ai/ai.routes';
import { leadsRoutes } from '#server/features/engagement/leads.routes';
import { cardCodesRoutes } from '#server/features/engagement/card-codes.routes';
import { engagementRoutes } from '#server/features/engagement/engagement.routes';
import { teamRoutes } from '#server/features/team/team.routes';
import { productionRoutes } from '#server/features/production/production.routes';
import { walletRoutes } from '#server/features/wallet/wallet.routes';
import { printRoutes } from '#server/features/print/print.routes';
import { webhooksRoutes } from '#server/features/webhooks/webhooks.routes';
import { apiRouteCollector } from '#server/features/developer/openapi';
import { developerRoutes } from '#server/features/developer/developer.routes';
import { visitOrigin } from '#server/features/engagement/public-api';
import { attachOrdersByVerifiedEmail } from '#server/features/orders/public-api';

type FeatureRoutes = ((app: FastifyInstance) => Promise<void>) | [FastifyPluginAsync<any>, object];

/**
 * Every feature's routes, registered in this order. A feature adds one line here.
 * Each route must declare `config: { access: 'public' | 'user' | 'admin' }` (enforced at start-up).
 * This is the composition root: where a feature needs a verb of a feature built on top of it
 * (profile's public page needs engagement's card-code attribution), it is passed in here as a
 * plugin option, so the feature graph has no cycle (docs/architecture.md, "Walls").
 */
export const featureRoutes: FeatureRoutes[] = [
  // first: records every route for the OpenAPI document (developer, decision 23-01)
  apiRouteCollector,
  healthRoutes,
  // a verified sign-in gathers the orders placed signed out with the same address (issue 20)
  [authRoutes, { onVerifiedSignIn: attachOrdersByVerifiedEmail }],
  subscribeRoutes,
  qrcodeRoutes,
  profileRoutes,
  uploadsRoutes,
  [publicProfileRoutes, { visitOrigin }],
  reviewsRoutes,
  accountRoutes,
  orderRoutes,
  shopifyRoutes,
  adminRoutes,
  templatesRoutes,
  designReviewRoutes,
  aiRoutes,
  leadsRoutes,
  cardCodesRoutes,
  engagementRoutes,
  teamRoutes,
  productionRoutes,
  walletRoutes,
  printRoutes,
  webhooksRoutes,
  developerRoutes,
];
