import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * This site's origin (`https://host`), or '' while a prerendered page hydrates: the build cannot
 * know the host, so absolute URLs appear right after hydration instead of being baked in wrong.
 */
export function useOrigin(): string {
  return useSyncExternalStore(
    never,
    () => window.location.origin,
    () => '',
  );
}
