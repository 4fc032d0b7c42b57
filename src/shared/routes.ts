/**
 * The product's page routes (the spec's route table plus our own pages).
 * The server uses it to answer unknown paths with HTTP 404; the web router mirrors it.
 */
export const PAGE_ROUTES = [
  '/',
  '/templates',
  '/order',
  '/order-success',
  '/order-status/:token',
  '/design',
  '/create-card',
  '/card-generator',
  '/ai-assistant',
  '/svg-templates',
  '/profile',
  '/dashboard',
  '/admin',
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/confirm-email',
  '/account',
  '/help',
  '/faq',
  '/about',
  '/reviews',
  '/p/:id',
  '/shopify-test',
  '/shopify-admin',
] as const;

const compiled = PAGE_ROUTES.map((p) => new RegExp('^' + p.replace(/:[a-zA-Z]+/g, '[^/]+') + '/?$'));

export function isKnownPagePath(pathname: string): boolean {
  return compiled.some((re) => re.test(pathname));
}
