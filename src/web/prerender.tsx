// Build-time prerender (scripts/build-web.mjs): renders a page of the client to HTML in Node with
// the same providers and route table as main.tsx, so the browser can hydrate it. Queries are not
// run here: data-driven parts render their loading state, exactly as the client's first render does.
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Providers } from '#web/app/providers';
import { routes } from '#web/app/routes';

export async function prerenderPage(pathname: string): Promise<string> {
  const router = createMemoryRouter(routes, { initialEntries: [pathname] });
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
    // every boundary inline and complete: no hidden segments revealed by inline scripts (the CSP
    // allows no inline script), so the HTML alone is the finished page
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  router.dispose();
  return Buffer.concat(chunks).toString('utf8');
}
