import { createElement, lazy, type ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { PAGE_ROUTES, type PagePath } from '#shared/routes';
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
 * The page of every path in PAGE_ROUTES (the server's list of page paths): the type makes a path
 * missing here, or one the server does not know, a compile error.
 */
const PAGES: Record<PagePath, () => Promise<PageModule>> = {
  '/': () => import('#web/routes/home'),
  '/templates': () => import('#web/routes/templates'),
  '/order': () => import('#web/routes/order'),
  '/order-success': () => import('#web/routes/order-success'),
  '/order-status/:token': () => import('#web/routes/order-status'),
  '/orders': () => import('#web/routes/my-orders'),
  '/claim/:token': () => import('#web/routes/claim-order'),
  '/design': () => import('#web/routes/design'),
  '/create-card': () => import('#web/routes/create-card'),
  '/card-generator': () => import('#web/routes/card-generator'),
  '/ai-assistant': () => import('#web/routes/ai-assistant'),
  '/svg-templates': () => import('#web/routes/svg-templates'),
  '/profile': () => import('#web/routes/profile'),
  '/dashboard': () => import('#web/routes/dashboard'),
  '/admin': () => import('#web/routes/admin'),
  '/login': () => import('#web/routes/auth'),
  '/signup': () => import('#web/routes/auth'),
  '/forgot-password': () => import('#web/routes/forgot-password'),
  '/reset-password': () => import('#web/routes/reset-password'),
  '/confirm-email': () => import('#web/routes/confirm-email'),
  '/account': () => import('#web/routes/account'),
  '/account-deleted': () => import('#web/routes/account-deleted'),
  '/help': () => import('#web/routes/help'),
  '/faq': () => import('#web/routes/faq'),
  '/about': () => import('#web/routes/about'),
  '/reviews': () => import('#web/routes/reviews'),
  '/privacy': () => import('#web/routes/privacy'),
  '/terms': () => import('#web/routes/terms'),
  '/p/:id': () => import('#web/routes/public-profile'),
  '/shopify-test': () => import('#web/routes/shopify-test'),
  '/shopify-admin': () => import('#web/routes/shopify-admin'),
  '/team': () => import('#web/routes/team'),
  '/team/join/:token': () => import('#web/routes/team-join'),
};

/**
 * The route table, shared by the browser (main.tsx) and the build-time prerender of the home page
 * (prerender.tsx), so both render the same tree and the prerendered HTML hydrates.
 */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      ...PAGE_ROUTES.map((path) => ({ path, ...page(PAGES[path]) })),
      { path: '/not-found', ...page(() => import('#web/routes/not-found')) },
      { path: '*', ...page(() => import('#web/routes/not-found')) },
    ],
  },
];

/** Loads the chunks of the pages that `pathname` shows (boot.tsx, before hydrating a prerendered page). */
export async function preloadPages(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(matches.map((m) => (m.route.handle as { preload?: () => Promise<unknown> } | undefined)?.preload?.()));
}
