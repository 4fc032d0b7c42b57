import type { ReactNode } from 'react';
import { Dialog } from 'radix-ui';
import { SheetContent } from '#web/components/ui/dialog';

/**
 * The slide-in side menu below the medium breakpoint. Its own chunk: the dialog machinery (focus
 * trap, scroll lock) is loaded when a phone is idle or the menu is first opened, not on first load.
 */
export default function MobileMenu({
  open,
  onOpenChange,
  returnFocusTo,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: () => HTMLElement | null;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <SheetContent
        title="Menu"
        aria-describedby={undefined}
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          returnFocusTo()?.focus();
        }}
      >
        {children}
      </SheetContent>
    </Dialog.Root>
  );
}
