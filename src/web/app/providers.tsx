import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { queryClient } from '#web/lib/query-client';
import { ThemeProvider, useTheme } from './theme';
import { TooltipProvider } from '#web/components/ui/tooltip';

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
