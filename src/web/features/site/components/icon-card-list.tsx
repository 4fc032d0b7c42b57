import type { ComponentType } from 'react';
import { Card, CardContent } from '#web/components/ui/card';
import { cn } from '#web/lib/utils';

export interface IconCardItem {
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  title: string;
  text: string;
}

/** A grid of cards, each a gold icon, a title and a line of text (home page features, about page values). */
export function IconCardList({ items, className }: { items: readonly IconCardItem[]; className?: string }) {
  return (
    <ul className={cn('grid gap-4 sm:grid-cols-2 lg:grid-cols-4', className)}>
      {items.map(({ icon: Icon, title, text }) => (
        <li key={title}>
          <Card className="h-full">
            <CardContent className="p-6">
              <span className="flex size-10 items-center justify-center rounded-lg bg-gold/15 text-gold">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{text}</p>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}
