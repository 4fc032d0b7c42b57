import { useSyncExternalStore } from 'react';

/** Below Tailwind's `lg`: the designer is one column there (phones, and tablets held upright). */
const NARROW = '(max-width: 1023px)';

const query = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(NARROW) : null);

function subscribe(onChange: () => void) {
  const mq = query();
  mq?.addEventListener('change', onChange);
  return () => mq?.removeEventListener('change', onChange);
}

/** True while the designer is one column: its live preview then sits on top and stays in view (decision 37-06). */
export function useNarrowLayout(): boolean {
  return useSyncExternalStore(subscribe, () => query()?.matches ?? false, () => false);
}
