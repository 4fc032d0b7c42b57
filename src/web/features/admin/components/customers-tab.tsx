import { useState } from 'react';
import { Mail, Phone, Search } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { useCustomers } from '../api';
import { formatCents, formatDate } from '../format';
import { useDebounced } from '../use-debounced';
import { StatusBadge } from './status-badge';

const telHref = (phone: string) => `tel:${phone.replace(/[^+\d]/g, '')}`;

export function CustomersTab({ onView }: { onView: (orderId: number) => void }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebounced(search.trim(), 300);
  const customers = useCustomers({ q, page });
  const data = customers.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <div className="space-y-4">
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input
          type="search"
          aria-label="Search customers"
          placeholder="Search by name, email or order ID"
          className="pl-9"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </div>
      {customers.isLoading ? <Skeleton className="h-40" /> : null}
      {customers.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(customers.error, 'Could not load customers.')}
        </p>
      ) : null}
      {data && data.customers.length === 0 ? <Card className="p-8 text-center text-sm text-muted-foreground">{q ? 'No customers match this search.' : 'No customers yet.'}</Card> : null}
      <ul className="grid gap-3 lg:grid-cols-2">
        {data?.customers.map((c) => (
          <li key={c.email}>
            <Card className="h-full p-4" data-testid="customer">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-semibold">{c.name}</p>
                  {c.company ? <p className="text-sm text-muted-foreground">{c.company}</p> : null}
                  <p className="break-all text-sm">{c.email}</p>
                  {c.phone ? <p className="text-sm">{c.phone}</p> : null}
                </div>
                <div className="flex gap-2">
                  <Button asChild size="sm" variant="outline">
                    <a href={`mailto:${c.email}`} aria-label={`Email ${c.name}`}>
                      <Mail aria-hidden="true" />
                      Email
                    </a>
                  </Button>
                  {c.phone ? (
                    <Button asChild size="sm" variant="outline">
                      <a href={telHref(c.phone)} aria-label={`Call ${c.name}`}>
                        <Phone aria-hidden="true" />
                        Call
                      </a>
                    </Button>
                  ) : (
                    <Button size="sm" variant="outline" disabled title="No phone number on file">
                      <Phone aria-hidden="true" />
                      Call
                    </Button>
                  )}
                </div>
              </div>
              <p className="mt-2 text-xs text-muted-foreground">
                {c.orderCount} order{c.orderCount === 1 ? '' : 's'} · {formatCents(c.totalCents)} · last {formatDate(c.lastOrderAt)}
              </p>
              <ul className="mt-2 divide-y divide-border text-sm">
                {c.orders.map((o) => (
                  <li key={o.id} className="flex items-center justify-between gap-2 py-1.5">
                    <button type="button" className="font-mono underline-offset-2 hover:underline cursor-pointer" onClick={() => onView(o.id)}>
                      #{o.id}
                    </button>
                    <span className="text-muted-foreground">{formatDate(o.createdAt)}</span>
                    <span className="tabular-nums">{formatCents(o.totalCents)}</span>
                    <StatusBadge status={o.status} />
                  </li>
                ))}
              </ul>
            </Card>
          </li>
        ))}
      </ul>
      {data && data.total > data.pageSize ? (
        <nav className="flex items-center justify-between gap-2 text-sm" aria-label="Pages">
          <span className="text-muted-foreground">
            {data.total} customers · page {data.page} of {pages}
          </span>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              Next
            </Button>
          </div>
        </nav>
      ) : null}
    </div>
  );
}
