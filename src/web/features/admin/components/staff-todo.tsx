import { BellRing, Eye } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { StatusBadge } from '#web/components/status-badge';
import { useMarkTodoSeen, useStaffTodo } from '#web/features/admin/api';
import { formatCents, formatDate } from '#web/features/admin/format';

/**
 * The first admin's to-do (issue 37, decision 37-02): orders placed while no admin account existed,
 * so nobody was told about them. Each leaves the list when a staff member marks it seen. Shows
 * nothing when there is nothing to do.
 */
export function StaffTodo({ onView }: { onView: (id: number) => void }) {
  const todo = useStaffTodo();
  const mark = useMarkTodoSeen();
  const list = todo.data?.ordersWithoutStaff ?? [];
  if (!todo.data || todo.data.total === 0) return null;
  const total = todo.data.total;
  return (
    <section aria-labelledby="staff-todo-title" className="mb-6 space-y-3 rounded-lg border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:bg-amber-950/30 dark:text-amber-100" data-testid="staff-todo">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 items-start gap-2">
          <BellRing className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <div className="min-w-0">
            <h2 id="staff-todo-title" className="font-semibold">
              {total === 1 ? '1 order arrived before any staff account existed' : `${total} orders arrived before any staff account existed`}
            </h2>
            <p className="text-sm">Nobody was told about {total === 1 ? 'it' : 'them'}. Look at each order, then mark it seen.</p>
          </div>
        </div>
        {list.length > 1 ? (
          <Button size="sm" variant="outline" onClick={() => mark.mutate(list.map((o) => o.id))} disabled={mark.isPending}>
            Mark all seen
          </Button>
        ) : null}
      </div>
      <ul className="divide-y divide-amber-300 text-sm" aria-label="Orders to look at">
        {list.map((o) => (
          <li key={o.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2" data-testid={`todo-order-${o.id}`}>
            <span className="font-mono">#{o.id}</span>
            <span className="min-w-0 flex-1">
              <span className="block break-words font-medium">{o.customerName}</span>
              <span className="block break-all text-xs">
                {o.email} · {o.quantity} × {o.cardTypeLabel} ({o.cardStyle}) · {formatCents(o.totalCents)} · {formatDate(o.createdAt)}
              </span>
            </span>
            <StatusBadge status={o.status} />
            <div className="flex gap-2">
              <Button size="sm" variant="outline" onClick={() => onView(o.id)} aria-label={`View order #${o.id}`}>
                <Eye aria-hidden="true" />
                View
              </Button>
              <Button size="sm" onClick={() => mark.mutate([o.id])} disabled={mark.isPending} aria-label={`Mark order #${o.id} seen`}>
                Mark seen
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
