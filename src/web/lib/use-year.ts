import { useSyncExternalStore } from 'react';

declare const __BUILD_YEAR__: number | undefined;

const never = () => () => {};
const buildYear = () => (typeof __BUILD_YEAR__ === 'number' ? __BUILD_YEAR__ : new Date().getFullYear());

/**
 * The current year. A prerendered page was built in `__BUILD_YEAR__` (vite.config.ts `define`):
 * hydration starts from that year and then shows today's, so an old build never shows an old year.
 */
export function useYear(): number {
  return useSyncExternalStore(never, () => new Date().getFullYear(), buildYear);
}
