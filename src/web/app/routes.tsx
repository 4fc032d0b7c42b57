import { createElement, lazy, type ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { Layout } from './layout';

type PageModule = { default: ComponentType };

/**
 * A lazily loaded page (every page is its own chunk, the home page too, so the first load stays
 * small). Once its chunk has arrived the page renders without suspending: boot.tsx loads a
 * prerendered page's chunk before hydrating, so hydration never waits for it, and a page visited
 * before opens again without a loading flash.
 */
function page(load: () => Promise<PageModule>): Pick<RouteObject, 'element' | 'handle'> {
  let loaded: ComponentType | null = null;
  let pending: Promise<PageModule> | null = null;
  const preload = () =>
    (pending ??= load().then((m) => {
      loaded = m.default;
      return m;
    }));
  const Lazy = lazy(preload);
  function Page() {
    return loaded ? createElement(loaded) : <Lazy />;
  }
  return { element: <Page />, handle: { preload } };
}

/**
 * The route table, shared by the browser (main.tsx) and the build-time prerender of the home page
 * (prerender.tsx), so both render the same tree and the prerendered HTML hydrates.
 */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', ...page(() => import('../routes/home')) },
      { path: '/templates', ...page(() => import('../routes/templates')) },
      { path: '/order', ...page(() => import('../routes/order')) },
      { path: '/order-success', ...page(() => import('../routes/order-success')) },
      { path: '/order-status/:token', ...page(() => import('../routes/order-status')) },
      { path: '/design', ...page(() => import('../routes/design')) },
      { path: '/create-card', ...page(() => import('../routes/create-card')) },
      { path: '/card-generator', ...page(() => import('../routes/card-generator')) },
      { path: '/ai-assistant', ...page(() => import('../routes/ai-assistant')) },
      { path: '/svg-templates', ...page(() => import('../routes/svg-templates')) },
      { path: '/profile', ...page(() => import('../routes/profile')) },
      { path: '/dashboard', ...page(() => import('../routes/dashboard')) },
      { path: '/admin', ...page(() => import('../routes/admin')) },
      { path: '/login', ...page(() => import('../routes/auth')) },
      { path: '/signup', ...page(() => import('../routes/auth')) },
      { path: '/forgot-password', ...page(() => import('../routes/forgot-password')) },
      { path: '/reset-password', ...page(() => import('../routes/reset-password')) },
      { path: '/confirm-email', ...page(() => import('../routes/confirm-email')) },
      { path: '/account', ...page(() => import('../routes/account')) },
      { path: '/help', ...page(() => import('../routes/help')) },
      { path: '/faq', ...page(() => import('../routes/faq')) },
      { path: '/about', ...page(() => import('../routes/about')) },
      { path: '/reviews', ...page(() => import('../routes/reviews')) },
      { path: '/p/:id', ...page(() => import('../routes/public-profile')) },
      { path: '/shopify-test', ...page(() => import('../routes/shopify-test')) },
      { path: '/shopify-admin', ...page(() => import('../routes/shopify-admin')) },
      { path: '/not-found', ...page(() => import('../routes/not-found')) },
      { path: '*', ...page(() => import('../routes/not-found')) },
    ],
  },
];

/** Loads the chunks of the pages that `pathname` shows (boot.tsx, before hydrating a prerendered page). */
export async function preloadPages(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(matches.map((m) => (m.route.handle as { preload?: () => Promise<unknown> } | undefined)?.preload?.()));
}
