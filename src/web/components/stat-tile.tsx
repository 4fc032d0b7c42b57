import type { LucideIcon } from 'lucide-react';
import { Card } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { cn } from '#web/lib/utils';

export interface Tile {
  label: string;
  value: string | number;
  hint?: string;
  Icon: LucideIcon;
  /** the icon's colour (gold unless given) */
  iconClassName?: string;
  /** greys the figure out (a state still to reach, such as an incomplete profile) */
  muted?: boolean;
  testId?: string;
}

/** One figure on a card: label and icon, the value (a skeleton while loading), an optional hint. */
export function StatTile({ label, value, hint, Icon, iconClassName, muted, testId, loading }: Tile & { loading?: boolean }) {
  return (
    <Card className="p-4" data-testid={testId}>
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">{label}</p>
        <Icon className={cn('size-4 text-gold', iconClassName)} aria-hidden="true" />
      </div>
      {loading ? (
        <Skeleton className="mt-2 h-8 w-20" />
      ) : (
        <p className={cn('mt-1 text-2xl font-bold tabular-nums', muted && 'text-muted-foreground')} data-value>
          {value}
        </p>
      )}
      {hint ? <p className="mt-1 text-xs text-muted-foreground">{hint}</p> : null}
    </Card>
  );
}

/** A row of figure tiles (skeletons until the figures arrive, so nothing shifts). */
export function StatTiles({ tiles, loading, className }: { tiles: Tile[]; loading?: boolean; className?: string }) {
  return (
    <div className={cn('grid grid-cols-2 gap-3 lg:grid-cols-4', className)}>
      {tiles.map((t) => (
        <StatTile key={t.label} {...t} loading={loading} />
      ))}
    </div>
  );
}
