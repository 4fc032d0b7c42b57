import type { LucideIcon } from 'lucide-react';
import { Card } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';

export interface Tile {
  label: string;
  value: string | number;
  hint?: string;
  Icon: LucideIcon;
  testId?: string;
}

/** A row of figure tiles (skeletons until the figures arrive, so nothing shifts). */
export function StatTiles({ tiles, loading }: { tiles: Tile[]; loading?: boolean }) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {tiles.map(({ label, value, hint, Icon, testId }) => (
        <Card key={label} className="p-4" data-testid={testId}>
          <div className="flex items-center justify-between gap-2">
            <p className="text-sm text-muted-foreground">{label}</p>
            <Icon className="size-4 text-gold" aria-hidden="true" />
          </div>
          {loading ? (
            <Skeleton className="mt-2 h-8 w-20" />
          ) : (
            <p className="mt-1 text-2xl font-bold tabular-nums" data-value>
              {value}
            </p>
          )}
          {hint ? <p className="mt-1 text-xs text-muted-foreground">{hint}</p> : null}
        </Card>
      ))}
    </div>
  );
}
