import { useState } from 'react';
import { Mail, Phone } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { useCustomers } from '#web/features/admin/api';
import { formatCents, formatDate } from '#web/features/admin/format';
import { useDebounced } from '#web/features/admin/use-debounced';
import { ListLoadState, PageNav, SearchField, pageCount, useListPage } from './list-controls';
import { StatusBadge } from '#web/components/status-badge';

const telHref = (phone: string) => `tel:${phone.replace(/[^+\d]/g, '')}`;

export function CustomersTab({ onView }: { onView: (orderId: number) => void }) {
  const [search, setSearch] = useState('');
  const { page, setPage, backToFirstPage } = useListPage();
  const q = useDebounced(search.trim(), 300);
  const customers = useCustomers({ q, page });
  const data = customers.data;
  const pages = pageCount(data);
  return (
    <div className="space-y-4">
      <SearchField label="Search customers" placeholder="Search by name, email or order ID" value={search} onChange={backToFirstPage(setSearch)} />
      <ListLoadState query={customers} errorText="Could not load customers." />
      {data && data.customers.length === 0 ? <Card className="p-8 text-center text-sm text-muted-foreground">{q ? 'No customers match this search.' : 'No customers yet.'}</Card> : null}
      <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        {data?.customers.map((c) => (
          <li key={c.email}>
            <Card className="h-full p-4" data-testid="customer">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-semibold">{c.name}</p>
                  {c.company ? <p className="text-sm text-muted-foreground">{c.company}</p> : null}
                  <p className="break-all text-sm">
                    {c.email}{' '}
                    {c.emailVerified === null ? null : (
                      <span data-testid="customer-verified" className={c.emailVerified ? 'text-xs text-green-600 dark:text-green-400' : 'text-xs text-muted-foreground'}>
                        {c.emailVerified ? '(verified account)' : '(account not verified)'}
                      </span>
                    )}
                  </p>
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
        <PageNav
          summary={
            <>
              {data.total} customers · page {data.page} of {pages}
            </>
          }
          page={page}
          pages={pages}
          setPage={setPage}
        />
      ) : null}
    </div>
  );
}
