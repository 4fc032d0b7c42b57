import { useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { Search } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Input, Select } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { cn } from '#web/lib/utils';

/** Pages in a paged list answer (at least one). */
export const pageCount = (data: { total: number; pageSize: number } | undefined) => (data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1);

/** A list's page number (from 1), and `backToFirstPage(set)`: a filter's setter that also goes back to page 1. */
export function useListPage() {
  const [page, setPage] = useState(1);
  const backToFirstPage = (set: (value: string) => void) => (value: string) => {
    set(value);
    setPage(1);
  };
  return { page, setPage, backToFirstPage };
}

/** A search box with a magnifier; `onChange` gets the typed text. */
export function SearchField({ label, placeholder, value, onChange, className }: { label: string; placeholder: string; value: string; onChange: (value: string) => void; className?: string }) {
  return (
    <div className={cn('relative', className)}>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input type="search" aria-label={label} placeholder={placeholder} className="pl-9" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

/** A status filter: "all" (the empty value) and then each of `values`. */
export function FilterSelect<T extends string>({
  label,
  className,
  value,
  onChange,
  allLabel,
  values,
  valueLabel,
}: {
  label: string;
  className: string;
  value: string;
  onChange: (value: string) => void;
  allLabel: string;
  values: readonly T[];
  valueLabel: (value: T) => string;
}) {
  return (
    <Select aria-label={label} className={className} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{allLabel}</option>
      {values.map((s) => (
        <option key={s} value={s}>
          {valueLabel(s)}
        </option>
      ))}
    </Select>
  );
}

/** Skeleton while a list loads and its error, if it fails. */
export function ListLoadState({ query, errorText }: { query: { isLoading: boolean; isError: boolean; error: unknown }; errorText: string }) {
  return (
    <>
      {query.isLoading ? <Skeleton className="h-40" /> : null}
      {query.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(query.error, errorText)}
        </p>
      ) : null}
    </>
  );
}

/** Previous and Next, each disabled at its end of the list. */
export function PageButtons({ page, pages, setPage, className }: { page: number; pages: number; setPage: Dispatch<SetStateAction<number>>; className: string }) {
  return (
    <div className={className}>
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
        Previous
      </Button>
      <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
        Next
      </Button>
    </div>
  );
}

/** A list's page navigation: what is shown (`summary`) and Previous / Next. */
export function PageNav({ summary, announce, page, pages, setPage }: { summary: ReactNode; announce?: boolean; page: number; pages: number; setPage: Dispatch<SetStateAction<number>> }) {
  return (
    <nav className="flex items-center justify-between gap-2 text-sm" aria-label="Pages">
      <span className="text-muted-foreground" aria-live={announce ? 'polite' : undefined}>
        {summary}
      </span>
      <PageButtons page={page} pages={pages} setPage={setPage} className="flex gap-2" />
    </nav>
  );
}
