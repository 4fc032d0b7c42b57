import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while React hydrates this component from prerendered HTML (and in the prerender itself),
 * true otherwise. Hydration is not one moment: a Suspense boundary (the page inside the layout)
 * hydrates in a later pass, after the shell's effects have started queries. A component whose
 * output depends on a query answer renders its loading state until hydrated, so what it hydrates
 * against is what the HTML shows; React then re-renders it with the answer.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
