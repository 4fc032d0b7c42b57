import { orderStatusLabel } from '#shared/catalogue';
import { Badge } from '#web/components/ui/badge';

type Tone = 'yellow' | 'blue' | 'green' | 'red';
type StatusKind = 'order' | 'design';

/**
 * The colour of each status (spec): an order is pending yellow, processing blue, completed green,
 * cancelled red; a card design in review yellow, approved green, rejected red; anything else grey.
 */
const TONES: Record<StatusKind, Record<string, Tone>> = {
  order: { pending: 'yellow', processing: 'blue', completed: 'green', cancelled: 'red' },
  design: { pending: 'yellow', approved: 'green', rejected: 'red' },
};

const LABELS: Record<StatusKind, (status: string) => string> = {
  order: orderStatusLabel,
  design: (s) => (s === 'pending' ? 'In review' : s.charAt(0).toUpperCase() + s.slice(1)),
};

/** The status pill of an order (admin) or of a submitted card design (dashboard). */
export function StatusBadge({ status, of = 'order' }: { status: string; of?: StatusKind }) {
  return (
    <Badge variant={TONES[of][status] ?? 'grey'} data-status={status}>
      {LABELS[of](status)}
    </Badge>
  );
}
