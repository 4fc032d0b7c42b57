import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { cleanCss, sanitizeSvg } from '#server/infra/svg/svg-sanitize';
import { profileLinks, reviews } from '#server/db/schema/index';
import { scopeSvgStyles } from '#shared/templates/scope-styles';
import { normalizeLinkUrl } from '#shared/schemas/common';
import { PENDING_MESSAGE, PUBLISHED_MESSAGE } from '#shared/schemas/reviews';

/** Issue 19, items 4, 5 and 9: template CSS loads nothing and stays in its card; reviews need proof; links are normalised. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t.close();
});

describe('template CSS loads nothing (issue 19.4)', () => {
  const LOADERS = [
    'rect{background:image-set("https://evil.example/a.png" 1x)}',
    "rect{background:-webkit-image-set('//evil.example/a.png' 1x)}",
    'rect{background-image:image("https://evil.example/a.png")}',
    'rect{background:cross-fade(url(https://evil.example/a.png), "https://evil.example/b.png")}',
    'rect{background:element(#x), -moz-element(#y)}',
    'rect{mask-image:src("https://evil.example/m.svg")}',
    '@import "https://evil.example/x.css"; rect{fill:red}',
    "@import url('https://evil.example/x.css') screen;",
    '@font-face{font-family:Evil;src:url(https://evil.example/f.woff2),local(Arial)} text{font-family:Evil}',
    '@namespace svg url(https://evil.example/ns);',
    'rect{background:image-set/**/("https://evil.example/a.png" 1x)}',
    'rect{background:url( "https://evil.example/a.png" )}',
  ];
  it('cleanCss leaves no resource-loading function or outside address', () => {
    for (const css of LOADERS) {
      const out = cleanCss(css);
      expect(out, css).not.toMatch(/evil\.example/);
      expect(out, css).not.toMatch(/(image-set|image|cross-fade|element|src|url)\s*\(/i);
      expect(out, css).not.toMatch(/@import|@font-face|@namespace/i);
    }
    // local references still work
    expect(cleanCss('rect{fill:url(#grad)}')).toBe('rect{fill:url(#grad)}');
  });

  it('sanitizeSvg keeps no outside address in <style> or style attributes', () => {
    const svg = sanitizeSvg(
      `<svg xmlns="http://www.w3.org/2000/svg"><style>${LOADERS.join('\n')}</style><rect style="background:image-set('https://evil.example/a.png' 1x)" width="1" height="1"/></svg>`,
    );
    expect(svg).not.toMatch(/evil\.example/);
  });

  it("a template's <style> is scoped to its card when inlined", () => {
    const scoped = scopeSvgStyles(
      '<svg xmlns="http://www.w3.org/2000/svg"><style>body, :root{display:none} * {opacity:0} .name &gt; tspan{fill:#fff} @media (min-width:1px){a{color:red}} @keyframes spin{to{opacity:0}} @font-face{font-family:X}</style><text class="name">A</text></svg>',
      'c7-',
    );
    const css = scoped.match(/<style>([\s\S]*)<\/style>/)![1];
    const selectors = [...css.matchAll(/([^{}]+)\{[^{}]*\}/g)].map((m) => m[1].trim()).filter((s) => !s.startsWith('@'));
    expect(selectors.length).toBeGreaterThan(3);
    for (const list of selectors) for (const sel of list.split(',')) expect(sel.trim()).toMatch(/^\[data-card-scope="c7-"\]/);
    expect(css).not.toMatch(/@keyframes|@font-face/);
    expect(css).toContain('[data-card-scope="c7-"] .name > tspan');
  });
});

describe('reviews are verified only by proof (issue 19.5)', () => {
  const review = (over: Record<string, unknown> = {}) => ({
    customerName: 'Grace Hopper',
    email: 'grace@example.com',
    rating: 5,
    title: `Great cards ${Math.random()}`,
    comment: 'The cards are beautiful and arrived on time.',
    ...over,
  });
  async function placeOrder(agent?: Agent) {
    const email = `buyer_${Math.random().toString(36).slice(2)}@example.com`;
    const res = agent ? await agent.post('/api/order', orderInput({ email })) : await t.app.inject({ method: 'POST', url: '/api/order', payload: orderInput({ email }) });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    const id = Number(String(body.orderNumber ?? body.orderId ?? body.id).replace('#', ''));
    return { id, email, token: String(body.statusUrl).split('/order-status/')[1] };
  }

  it('order number + e-mail no longer verifies, and the answer is the same whether they match or not', async () => {
    const o = await placeOrder();
    const match = await new Agent(t.app).post('/api/reviews', review({ email: o.email, orderNumber: `#${o.id}` }));
    const nomatch = await new Agent(t.app).post('/api/reviews', review({ email: 'someone@example.com', orderNumber: `#${o.id}` }));
    expect(match.statusCode).toBe(201);
    expect(nomatch.statusCode).toBe(201);
    const strip = (b: any) => ({ published: b.published, message: b.message, verified: b.review.verified });
    expect(strip(match.json())).toEqual({ published: false, message: PENDING_MESSAGE, verified: false });
    expect(strip(nomatch.json())).toEqual(strip(match.json()));
  });

  it("the order status link's token verifies (once per order)", async () => {
    const o = await placeOrder();
    const res = await new Agent(t.app).post('/api/reviews', review({ email: 'any@example.com', orderToken: o.token }));
    expect(res.json()).toMatchObject({ published: true, message: PUBLISHED_MESSAGE });
    const [row] = await t.app.ctx.db.select().from(reviews).where(eq(reviews.id, res.json().review.id));
    expect(row.orderNumber).toBe(`#${o.id}`);
    const second = await new Agent(t.app).post('/api/reviews', review({ orderToken: o.token }));
    expect(second.json().published).toBe(false);
    // a token with another order's number proves nothing
    const other = await placeOrder();
    const mixed = await new Agent(t.app).post('/api/reviews', review({ orderToken: other.token, orderNumber: `#${o.id}` }));
    expect(mixed.json().published).toBe(false);
    expect((await new Agent(t.app).post('/api/reviews', review({ orderToken: 'not-a-real-token-123456' }))).json().published).toBe(false);
  });

  it('the signed-in owner of the order verifies by its number; someone else does not', async () => {
    const owner = await signedInAgent(t.app);
    const o = await placeOrder(owner.agent);
    const stranger = await signedInAgent(t.app);
    expect((await stranger.agent.post('/api/reviews', review({ email: o.email, orderNumber: `#${o.id}` }))).json().published).toBe(false);
    expect((await owner.agent.post('/api/reviews', review({ orderNumber: `${o.id}` }))).json().published).toBe(true);
  });
});

describe('saved links are normalised (issue 19.9)', () => {
  it('refuses odd spellings and URLs without a real host, stores the normalised form', async () => {
    const { agent, user } = await signedInAgent(t.app);
    for (const url of ['http:evil.com', 'https:/\\evil.com', 'https:\\\\evil.com', 'https://user:pw@evil.com', 'https://localhost/x', 'https://intranet/x', 'ftp://evil.com', '//evil.com']) {
      const res = await agent.post('/api/profile', { fullName: 'Link Tester', links: [{ linkType: 'website', url }] });
      expect(res.statusCode, url).toBe(400);
    }
    const res = await agent.post('/api/profile', { fullName: 'Link Tester', links: [{ linkType: 'website', url: 'HTTPS://Example.COM/a/../b?q=1' }] });
    expect(res.statusCode).toBe(201);
    const rows = await t.app.ctx.db.select({ url: profileLinks.url }).from(profileLinks).where(eq(profileLinks.profileId, res.json().id ?? res.json().profile?.id));
    expect(rows.map((r) => r.url)).toEqual(['https://example.com/b?q=1']);
    expect(user.id).toBeTruthy();
    expect(normalizeLinkUrl('https://münchen.de')).toBe('https://xn--mnchen-3ya.de');
    expect(normalizeLinkUrl('https://example.com/')).toBe('https://example.com/');
  });
});
