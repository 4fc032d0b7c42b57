import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router';
import { PAGE_ROUTES } from '#shared/routes';
import { routes } from './routes';

describe('the web route table', () => {
  it('has a page for exactly the paths of PAGE_ROUTES (plus the not-found pages), in the same order', () => {
    const paths = (routes[0]!.children ?? []).map((r) => r.path);
    expect(paths).toEqual([...PAGE_ROUTES, '/not-found', '*']);
  });

  it('opens each of those paths on its own page, not on the not-found page', () => {
    for (const pattern of PAGE_ROUTES) {
      const pathname = pattern.replace(/:[a-zA-Z]+/g, 'abc123');
      expect(matchRoutes(routes, pathname)?.at(-1)?.route.path, pathname).toBe(pattern);
    }
  });
});
