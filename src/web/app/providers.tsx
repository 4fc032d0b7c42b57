import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { queryClient } from '#web/lib/query-client';
import { ThemeProvider, useTheme } from './theme';
import { TooltipProvider } from '#web/components/ui/tooltip';
import { releaseEarlyClicks } from '#web/lib/early-clicks';

const phoneQuery = () => (typeof window.matchMedia === 'function' ? window.matchMedia('(max-width: 767px)') : null);
const onPhoneChange = (cb: () => void) => {
  const mq = phoneQuery();
  mq?.addEventListener('change', cb);
  return () => mq?.removeEventListener('change', cb);
};

/**
 * Notifications: bottom right on a wide screen; on a phone at the top, over the sticky header, where
 * they cover no form field being filled in (issue 37: at the bottom they sat on the fields).
 */
function ThemedToaster() {
  const { theme } = useTheme();
  const phone = useSyncExternalStore(onPhoneChange, () => phoneQuery()?.matches ?? false, () => false);
  return (
    <Toaster
      theme={theme}
      visibleToasts={1}
      duration={5000}
      hotkey={['F8']}
      position={phone ? 'top-center' : 'bottom-right'}
      mobileOffset={{ top: 4, left: 8, right: 8 }}
      closeButton
      containerAriaLabel="Notifications"
      toastOptions={{ classNames: { error: '!bg-destructive !text-destructive-foreground !border-destructive' } }}
    />
  );
}

export function Providers({ children }: { children: ReactNode }) {
  // runs once the whole tree below has been committed: on a prerendered page, that is hydration
  // done, and taps held until then are given again (lib/early-clicks.ts)
  useEffect(() => releaseEarlyClicks(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <TooltipProvider>
          {children}
          <ThemedToaster />
        </TooltipProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
