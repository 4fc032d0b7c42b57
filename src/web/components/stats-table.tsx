import type { ReactNode } from 'react';
import { cn } from '#web/lib/utils';
import { STACKED_CELL, STACKED_HEAD, STACKED_ROW } from '#web/components/ui/stacked-table';

/** One column of a figures table: its header and what each row shows in it. */
export interface StatsColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** figures lined up on the right */
  alignRight?: boolean;
  /** the row's name, in a heavier weight */
  strong?: boolean;
}

const SIZES = {
  /** a table on its own (team ranking) */
  regular: { table: 'text-sm', head: 'border-b text-xs uppercase text-muted-foreground', row: 'border-b', cell: 'py-2', gap: 'pr-3' },
  /** a table of many rows under a chart (the numbers per day) */
  dense: { table: 'text-xs', head: 'border-b border-border', row: 'border-b border-border/50', cell: 'py-1', gap: 'pr-2' },
} as const;

/** A table of figures (analytics): one header row, one row per item, the last column without a gap. */
export function StatsTable<Row>({
  columns,
  rows,
  rowKey,
  size = 'regular',
  className,
  testId,
  stacked = false,
}: {
  columns: StatsColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  size?: keyof typeof SIZES;
  className?: string;
  testId?: string;
  /** below the medium breakpoint each row is a stack of labelled lines (a wide table on a phone) */
  stacked?: boolean;
}) {
  const s = SIZES[size];
  const cellClass = (c: StatsColumn<Row>, i: number) => cn(s.cell, i < columns.length - 1 && s.gap, c.alignRight && 'text-right');
  return (
    <table className={cn('w-full text-left', s.table, className)} data-testid={testId}>
      <thead className={cn(stacked && STACKED_HEAD)}>
        <tr className={s.head}>
          {columns.map((c, i) => (
            <th key={c.header} className={cellClass(c, i)}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={rowKey(r)} className={cn(s.row, stacked && STACKED_ROW)}>
            {columns.map((c, i) => (
              <td key={c.header} data-label={stacked ? c.header : undefined} className={cn(cellClass(c, i), c.strong && 'font-medium', stacked && STACKED_CELL)}>
                {c.cell(r)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
