import { useEffect, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { queryClient } from '#web/lib/query-client';
import { ThemeProvider, useTheme } from './theme';
import { TooltipProvider } from '#web/components/ui/tooltip';
import { releaseEarlyClicks } from '#web/lib/early-clicks';

function ThemedToaster() {
  const { theme } = useTheme();
  return (
    <Toaster
      theme={theme}
      visibleToasts={1}
      duration={5000}
      hotkey={['F8']}
      position="bottom-right"
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
