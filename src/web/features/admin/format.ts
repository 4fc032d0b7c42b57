import { orderStatusLabel } from '#shared/catalogue';

/** "$1,280.00": a dollar sign and 2 decimals (spec). */
export function formatDollars(amount: number): string {
  return '$' + amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function formatCents(cents: number): string {
  return formatDollars(cents / 100);
}

export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

export { formatDateTime } from '#web/lib/format';

/** Success Rate as a percentage with one decimal; a dash before any order is decided. */
export function formatRate(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(1)}%`;
}

export { orderStatusLabel };
