import type { LucideIcon } from 'lucide-react';
import { Card, CardContent } from '#web/components/ui/card';

export interface Step {
  icon: LucideIcon;
  title: string;
  text: string;
}

/** "What happens next": numbered steps as cards (the success pages of a design and of an order). */
export function StepList({ steps }: { steps: Step[] }) {
  return (
    <ol className="mt-10 grid grid-cols-1 gap-4 sm:grid-cols-2">
      {steps.map(({ icon: Icon, title, text }, i) => (
        <li key={title}>
          <Card className="h-full">
            <CardContent className="flex gap-4 p-5">
              <Icon aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-gold" />
              <div>
                <h2 className="font-semibold">
                  {i + 1}. {title}
                </h2>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </div>
            </CardContent>
          </Card>
        </li>
      ))}
    </ol>
  );
}
