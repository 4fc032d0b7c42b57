import type { ReactNode } from 'react';
import { Tooltip as T } from 'radix-ui';

/** Tooltips open after 700 ms; moving between them within 300 ms opens the next at once. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <T.Provider delayDuration={700} skipDelayDuration={300}>
      {children}
    </T.Provider>
  );
}

export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  return (
    <T.Root>
      <T.Trigger asChild>{children}</T.Trigger>
      <T.Portal>
        <T.Content sideOffset={6} className="z-50 rounded-md border border-border bg-card px-3 py-1.5 text-xs text-card-foreground shadow-md">
          {content}
        </T.Content>
      </T.Portal>
    </T.Root>
  );
}
