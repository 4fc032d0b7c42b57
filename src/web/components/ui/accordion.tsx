import type { ComponentProps } from 'react';
import { Accordion as A } from 'radix-ui';
import { ChevronDown } from 'lucide-react';
import { cn } from '#web/lib/utils';

export const Accordion = A.Root;

export function AccordionItem({ className, ...props }: ComponentProps<typeof A.Item>) {
  return <A.Item className={cn('border-b border-border', className)} {...props} />;
}
/** `headingLevel`: the item's heading level in the page's outline (h3 unless the page says otherwise; no skipped levels). */
export function AccordionTrigger({ className, children, headingLevel = 3, ...props }: ComponentProps<typeof A.Trigger> & { headingLevel?: 2 | 3 | 4 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <A.Header asChild>
      <Heading className="flex">
        <A.Trigger
          className={cn('flex flex-1 items-center justify-between py-4 text-left font-medium hover:underline cursor-pointer [&[data-state=open]>svg]:rotate-180', className)}
          {...props}
        >
          {children}
          <ChevronDown aria-hidden="true" className="size-4 shrink-0 transition-transform duration-200" />
        </A.Trigger>
      </Heading>
    </A.Header>
  );
}
export function AccordionContent({ className, children, ...props }: ComponentProps<typeof A.Content>) {
  return (
    <A.Content className="overflow-hidden text-sm" {...props}>
      <div className={cn('pb-4 pt-0 text-muted-foreground', className)}>{children}</div>
    </A.Content>
  );
}
