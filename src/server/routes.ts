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
import { backupsRoutes } from '#server/features/backups/backups.routes';
import { templatesRoutes } from '#server/features/templates/templates.routes';
import { designsRoutes } from '#server/features/designs/designs.routes';
import { proofRoutes } from '#server/features/designs/proof.routes';
import { aiRoutes } from '#server/features/ai/ai.routes';
import { leadsRoutes } from '#server/features/engagement/leads.routes';
import { cardCodesRoutes } from '#server/features/engagement/card-codes.routes';
import { engagementRoutes } from '#server/features/engagement/engagement.routes';
import { teamRoutes } from '#server/features/team/team.routes';
import { productionRoutes } from '#server/features/production/production.routes';
import { walletRoutes } from '#server/features/wallet/wallet.routes';
import { printRoutes } from '#server/features/print/print.routes';
import { webhooksRoutes } from '#server/features/webhooks/webhooks.routes';
import { settingsRoutes } from '#server/features/settings/settings.routes';
import { developerRoutes } from '#server/features/developer/developer.routes';
import { auditRoutes } from '#server/features/audit/audit.routes';
import { scimRoutes, scimSettingsRoutes } from '#server/features/scim/scim.routes';
import { syncedFieldsOf } from '#server/features/scim/public-api';
import { ssoRoutes } from '#server/features/sso/sso.routes';
import { passwordSignInPolicy } from '#server/features/sso/public-api';
import { teamMembersSince, teamRoleOf } from '#server/features/team/public-api';
import { recordPageEvent, visitOrigin } from '#server/features/engagement/public-api';
import { applyStoreOrderEvent, attachOrdersByVerifiedEmail } from '#server/features/orders/public-api';

type FeatureRoutes = ((app: FastifyInstance) => Promise<void>) | [FastifyPluginAsync<any>, object];

/**
 * Every feature's routes, registered in this order. A feature adds one line here.
 * Each route is registered from its shared endpoint contract (`src/shared/contracts/<feature>.ts`,
 * `route(app, contract, handler)`; decision 34-04), which declares its access (enforced at start-up).
 * This is the composition root: where a feature needs a verb of a feature built on top of it
 * (profile's public page needs engagement's card-code attribution), it is passed in here as a
 * plugin option, so the feature graph has no cycle (docs/architecture.md, "Walls").
 */
export const featureRoutes: FeatureRoutes[] = [
  healthRoutes,
  // a verified sign-in gathers the orders placed signed out with the same address (issue 20)
  // a team that requires single sign-on closes the password to its people (issue 39)
  [authRoutes, { onVerifiedSignIn: attachOrdersByVerifiedEmail, passwordSignInPolicy }],
  subscribeRoutes,
  qrcodeRoutes,
  // the profile save refuses changes to the fields the company directory keeps in sync (issue 39)
  [profileRoutes, { syncedFieldsOf }],
  uploadsRoutes,
  // engagement resolves where a view came from and counts the page's views, clicks and saves
  [publicProfileRoutes, { visitOrigin, recordEvent: recordPageEvent }],
  reviewsRoutes,
  accountRoutes,
  orderRoutes,
  // the store's order webhooks record payments, refunds and cancellations on our orders (issue 35)
  [shopifyRoutes, { onStoreOrderEvent: applyStoreOrderEvent }],
  adminRoutes,
  backupsRoutes,
  templatesRoutes,
  designsRoutes,
  // the customer's proof on the order page (issue 35)
  proofRoutes,
  aiRoutes,
  leadsRoutes,
  cardCodesRoutes,
  engagementRoutes,
  teamRoutes,
  productionRoutes,
  walletRoutes,
  printRoutes,
  webhooksRoutes,
  settingsRoutes,
  developerRoutes,
  // the identity audit log sits below team: the owner's team and its members come in here (issue 39)
  [auditRoutes, { teamRoleOf, teamMembersSince }],
  // SCIM 2.0 provisioning at /scim/v2 (its own media type and error schema) and its settings (issue 39)
  scimRoutes,
  scimSettingsRoutes,
  // team single sign-on: domain proof, OpenID Connect and SAML 2.0 (issue 39)
  ssoRoutes,
];
