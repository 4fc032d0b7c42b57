import { Badge } from '#web/components/ui/badge';
import { orderStatusLabel } from '#shared/catalogue';

/** Spec colours: pending yellow, processing blue, completed green, cancelled red, anything else grey. */
const COLOURS: Record<string, 'yellow' | 'blue' | 'green' | 'red'> = {
  pending: 'yellow',
  processing: 'blue',
  completed: 'green',
  cancelled: 'red',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge variant={COLOURS[status] ?? 'grey'} data-status={status}>
      {orderStatusLabel(status)}
    </Badge>
  );
}
