import type { ComponentProps } from 'react';
import { Checkbox as C } from 'radix-ui';
import { Check } from 'lucide-react';
import { cn } from '#web/lib/utils';

export function Checkbox({ className, ...props }: ComponentProps<typeof C.Root>) {
  return (
    <C.Root
      className={cn('peer size-4 shrink-0 rounded-sm border border-input data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground cursor-pointer', className)}
      {...props}
    >
      <C.Indicator className="flex items-center justify-center">
        <Check className="size-3.5" />
      </C.Indicator>
    </C.Root>
  );
}
