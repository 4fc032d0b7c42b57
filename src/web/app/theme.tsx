import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';

export type Theme = 'light' | 'dark' | 'system';
export const THEME_KEY = 'ui-theme';

const ThemeContext = createContext<{ theme: Theme; setTheme: (t: Theme) => void }>({ theme: 'dark', setTheme: () => {} });

/** The choice of this page when the browser refuses storage (some private modes). */
let unsavedTheme: Theme | null = null;

function readTheme(): Theme {
  try {
    const t = localStorage.getItem(THEME_KEY);
    if (t === 'light' || t === 'dark' || t === 'system') return t;
  } catch {
    return unsavedTheme ?? 'dark';
  }
  return 'dark';
}

function apply(theme: Theme) {
  const dark = theme === 'dark' || (theme === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  const c = document.documentElement.classList;
  c.remove('light', 'dark');
  c.add(dark ? 'dark' : 'light');
}

// The stored choice is an external store: the prerendered home page is built with the default
// ('dark'), React hydrates with that server snapshot and then re-renders with the stored one, so
// the theme switcher never keeps a stale `aria-checked` from the prerendered HTML. Other tabs'
// changes arrive through the `storage` event.
const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
const serverTheme = (): Theme => 'dark';

/** Dark by default; light, dark or system; stored under `ui-theme` (public/theme-init.js applies it before paint). */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const theme = useSyncExternalStore(subscribe, readTheme, serverTheme);
  useEffect(() => {
    apply(theme);
    if (theme !== 'system') return;
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const on = () => apply('system');
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [theme]);
  const setTheme = useCallback((t: Theme) => {
    unsavedTheme = t;
    try {
      localStorage.setItem(THEME_KEY, t);
    } catch {}
    for (const l of listeners) l();
  }, []);
  const value = useMemo(() => ({ theme, setTheme }), [theme, setTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export const useTheme = () => useContext(ThemeContext);
