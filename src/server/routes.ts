import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './features/health/health.routes';
import { authRoutes } from './features/auth/auth.routes';
import { subscribeRoutes } from './features/subscribe/subscribe.routes';
import { qrcodeRoutes } from './features/qrcode/qrcode.routes';
import { profileRoutes } from './features/profile/profile.routes';
import { uploadsRoutes } from './features/uploads/uploads.routes';
import { publicProfileRoutes } from './features/public-profile/public-profile.routes';
import { reviewsRoutes } from './features/reviews/reviews.routes';
import { accountRoutes } from './features/account/account.routes';
import { orderRoutes } from './features/orders/orders.routes';
import { shopifyRoutes } from './features/shopify/shopify.routes';
import { adminRoutes } from './features/admin/admin.routes';
import { templatesRoutes } from './features/templates/templates.routes';
import { aiRoutes } from './features/ai/ai.routes';
import { leadsRoutes } from './features/leads/leads.routes';
import { cardCodesRoutes } from './features/card-codes/card-codes.routes';
import { engagementRoutes } from './features/engagement/engagement.routes';

/**
 * Every feature's routes, registered in this order. A feature adds one line here.
 * Each route must declare `config: { access: 'public' | 'user' | 'admin' }` (enforced at start-up).
 */
export const featureRoutes: Array<(app: FastifyInstance) => Promise<void>> = [healthRoutes, authRoutes, subscribeRoutes, qrcodeRoutes, profileRoutes, uploadsRoutes, publicProfileRoutes, reviewsRoutes, accountRoutes, orderRoutes, shopifyRoutes, adminRoutes, templatesRoutes, aiRoutes, leadsRoutes, cardCodesRoutes, engagementRoutes];
