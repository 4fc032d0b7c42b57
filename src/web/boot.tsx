// The application proper, loaded by main.tsx.
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Providers } from '#web/app/providers';
import { preloadPages, routes } from '#web/app/routes';

const router = createBrowserRouter(routes);
const app = (
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>
);

const container = document.getElementById('root')!;
// The home page arrives prerendered at build time (scripts/build-web.mjs), so its first paint needs
// no JavaScript. Its chunk (main.tsx fetches it beside this one) is loaded before hydrating, so
// hydration never suspends on it. Every other page starts from the empty shell.
if (container.dataset.prerendered && container.dataset.prerendered === window.location.pathname) {
  void preloadPages(window.location.pathname)
    .catch(() => {})
    .then(() =>
      // as a transition, hydration yields to the browser every few milliseconds instead of holding
      // the main thread for the whole page (a tap during it is still handled first)
      startTransition(() => {
        hydrateRoot(container, app, {
          onRecoverableError(error) {
            console.error('hydration:', error);
          },
        });
      }),
    );
} else {
  container.replaceChildren();
  createRoot(container).render(app);
}
