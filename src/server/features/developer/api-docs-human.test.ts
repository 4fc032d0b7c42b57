import { describe, expect, it } from 'vitest';
import { allEndpoints } from '#shared/contracts/index';
import { buildOpenApiDocument, isDocumented } from './openapi';
import { DOCS_PAGE } from './api-docs';

/**
 * Issue 37 item 6 (decision 37-09): the API reference reads as written by people: every operation
 * has its summary from its contract (none made from the method and path, "Send account/email"),
 * and the reference page leads back to the site.
 */
describe('the API reference for people', () => {
  it('every documented operation has a human summary from its contract', () => {
    const missing = allEndpoints()
      .filter((e) => isDocumented({ url: e.path, access: e.access }) && !e.summary?.trim())
      .map((e) => `${e.method} ${e.path}`);
    expect(missing, 'add a summary to these contracts').toEqual([]);
    const doc = buildOpenApiDocument(allEndpoints(), { serverUrl: '/', sessionCookie: 'sid' }) as { paths: Record<string, Record<string, { summary: string }>> };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        // the old made-up form: a verb and the path without /api/
        expect(op.summary, `${method} ${path}`).not.toMatch(/^(Read|Send|Save|Update|Delete) [a-z0-9/{}:._*-]+$/);
        expect(op.summary.length, `${method} ${path}`).toBeGreaterThan(5);
      }
    }
  });

  it('the reference page links back to the site', () => {
    expect(DOCS_PAGE).toMatch(/<nav[^>]*aria-label="Site"[^>]*>.*<a href="\/">[^<]*Metal Cards NYC<\/a>/s);
    expect(DOCS_PAGE).toContain('<a href="/account">');
  });
});
