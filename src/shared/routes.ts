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
  '/orders',
  '/claim/:token',
  '/design',
  // merged into /design (issue 35, decision 35-03): kept so old links redirect there
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
  // where the browser lands once the account is deleted (issue 37)
  '/account-deleted',
  '/help',
  '/faq',
  '/about',
  '/reviews',
  // the privacy policy and terms of service staff edit in Admin > Settings (issue 37)
  '/privacy',
  '/terms',
  '/p/:id',
  '/shopify-test',
  '/shopify-admin',
  '/team',
  '/team/join/:token',
] as const;

/** One of the page paths above (a pattern, `:param` included). */
export type PagePath = (typeof PAGE_ROUTES)[number];

/** Query parameters of a built path (empty values are left out). */
type PathQuery = Record<string, string | undefined>;

function withQuery(path: string, query?: PathQuery): string {
  const entries = Object.entries(query ?? {}).filter((e): e is [string, string] => !!e[1]);
  return entries.length ? `${path}?${new URLSearchParams(entries)}` : path;
}

/** An origin without its trailing slashes (`https://x.test/` -> `https://x.test`). */
function trimOrigin(origin: string): string {
  return origin.replace(/\/+$/, '');
}

// --- path builders: every parameterised path is built here, never by hand ---

/** `/p/{id}`: the public profile page (`?src=link`, `?preview=true`, `?src=card&code=` as given). */
export function publicProfilePath(id: string, query?: PathQuery): string {
  return withQuery(`/p/${encodeURIComponent(id)}`, query);
}

/** `{origin}/p/{id}`: the absolute public profile URL (what QR codes and cards carry). */
export function publicProfileUrl(origin: string, id: string, query?: PathQuery): string {
  return trimOrigin(origin) + publicProfilePath(id, query);
}

/** `/p/{id}/go/{linkId}`: a counted hop to one of the profile's links. */
export function profileLinkHopPath(id: string, linkId: string | number): string {
  return `${publicProfilePath(id)}/go/${encodeURIComponent(String(linkId))}`;
}

/** `/p/{id}/thanks`: the page after the contact-exchange form was sent without JavaScript. */
export function profileThanksPath(id: string): string {
  return `${publicProfilePath(id)}/thanks`;
}

/** `/api/p/{id}/leads`: where the contact-exchange form posts. */
export function profileLeadsPath(id: string): string {
  return `/api${publicProfilePath(id)}/leads`;
}

/** `/c/{code}`: a card batch's short link (redirects to the public profile). */
export function cardCodePath(code: string): string {
  return `/c/${code}`;
}

/** `{origin}/admin?tab=production&order={id}`: an order opened in the staff area (the job ticket's QR code, issue 22). */
export function adminOrderUrl(origin: string, orderId: number): string {
  return `${trimOrigin(origin)}${withQuery('/admin', { tab: 'production', order: String(orderId) })}`;
}

/** `/order-status/{token}`: the order status page. */
export function orderStatusPath(token: string): string {
  return `/order-status/${encodeURIComponent(token)}`;
}

/** `{origin}/order-status/{token}`: the absolute order status URL (e-mails, exports). */
export function orderStatusUrl(origin: string, token: string): string {
  return trimOrigin(origin) + orderStatusPath(token);
}

/** `/claim/{token}`: the single-use page where a visitor's order is claimed (issue 20). */
export function claimOrderPath(token: string): string {
  return `/claim/${encodeURIComponent(token)}`;
}

/** `{origin}/claim/{token}`: the claim link in the order e-mail. */
export function claimOrderUrl(origin: string, token: string): string {
  return trimOrigin(origin) + claimOrderPath(token);
}

/** `/team/join/{token}`: a team invitation (issue 21). */
export function teamJoinPath(token: string): string {
  return `/team/join/${encodeURIComponent(token)}`;
}

export function teamJoinUrl(origin: string, token: string): string {
  return trimOrigin(origin) + teamJoinPath(token);
}

export const TEAM_PATH = '/team';

/** `/design?order={id}`: the one designer, designing the card of that order (issue 35). */
export function designOrderPath(orderId: number): string {
  return `/design?order=${orderId}`;
}

/** `/design?card={id}`: the designer reopened on a design that needs changes ("Edit and resubmit"). */
export function editDesignPath(cardId: number): string {
  return withQuery('/design', { card: String(cardId) });
}

/**
 * `/design?cardType=standard&accent=%23hex&font=Name`: the designer with an AI suggestion applied
 * (issue 20). The card type is always named (issue 37): the designer never picks a metal from the colour.
 */
export function designWithLookPath(look: { cardType?: string; accent?: string; font?: string }): string {
  return withQuery('/design', { cardType: look.cardType, accent: look.accent, font: look.font });
}

/** "My orders": the signed-in customer's orders. */
export const MY_ORDERS_PATH = '/orders';
/** Where the browser lands once the account is deleted (issue 37, decision 37-09). */
export const ACCOUNT_DELETED_PATH = '/account-deleted';

const compiled = PAGE_ROUTES.map((p) => new RegExp('^' + p.replace(/:[a-zA-Z]+/g, '[^/]+') + '/?$'));

export function isKnownPagePath(pathname: string): boolean {
  return compiled.some((re) => re.test(pathname));
}
