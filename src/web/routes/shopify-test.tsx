import { Link } from 'react-router';
import { CheckCircle2, PlugZap, XCircle } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/api';
import { usePageTitle } from '#web/lib/use-page-title';
import { useTestConnection } from '#web/features/shopify/api';
import { StaffGate } from '#web/features/shopify/staff-gate';

/** Connection test page: idle, testing, then the real result of a call to the configured store. */
export default function ShopifyTestPage() {
  usePageTitle('Store Connection Test');
  return (
    <section className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="mb-6 text-3xl font-bold tracking-tight">Store Connection Test</h1>
      <StaffGate>
        <ConnectionTest />
      </StaffGate>
    </section>
  );
}

function ConnectionTest() {
  const test = useTestConnection();
  const state = test.isPending ? 'testing' : test.data || test.error ? 'done' : 'idle';
  const r = test.data;

  return (
    <Card data-state={state} data-testid="connection-test">
      <CardHeader>
        <h2 className="text-lg font-semibold">Online store (Shopify Storefront API 2025-01)</h2>
        <CardDescription>Calls the store with the configured domain and storefront token, and lists its products.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {state === 'idle' ? <p className="text-sm text-muted-foreground">Ready to test. Nothing has been sent yet.</p> : null}
        {state === 'testing' ? (
          <p className="flex items-center gap-2 text-sm" role="status">
            <Spinner label="Testing" /> Testing connection...
          </p>
        ) : null}
        {test.error ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(test.error, 'The test could not run.')}
          </p>
        ) : null}
        {r ? (
          <div role="status" className="space-y-3" data-testid="connection-result" data-ok={r.ok}>
            <p className={`flex items-center gap-2 font-medium ${r.ok ? 'text-green-700 dark:text-green-400' : 'text-destructive'}`}>
              {r.ok ? <CheckCircle2 className="size-5" aria-hidden="true" /> : <XCircle className="size-5" aria-hidden="true" />}
              {r.ok ? 'Connected' : 'Not connected'}: {r.message}
            </p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">API version</dt>
              <dd>{r.apiVersion}</dd>
              {r.storeDomain ? (
                <>
                  <dt className="text-muted-foreground">Store</dt>
                  <dd>{r.storeDomain}</dd>
                </>
              ) : null}
              {r.shopName ? (
                <>
                  <dt className="text-muted-foreground">Shop name</dt>
                  <dd>{r.shopName}</dd>
                </>
              ) : null}
              {r.productCount !== undefined ? (
                <>
                  <dt className="text-muted-foreground">Products</dt>
                  <dd data-testid="product-count">{r.productCount}</dd>
                </>
              ) : null}
              <dt className="text-muted-foreground">Time</dt>
              <dd>{r.durationMs} ms</dd>
            </dl>
            {r.products?.length ? (
              <ul className="list-disc pl-5 text-sm">
                {r.products.map((p) => (
                  <li key={p.title}>
                    {p.title}
                    {p.price ? ` - $${p.price}` : ''}
                  </li>
                ))}
              </ul>
            ) : null}
            {!r.configured ? (
              <p className="text-sm text-muted-foreground">
                Without the store settings, orders still succeed and customers get a link to their own order page. See the{' '}
                <Link className="underline" to="/shopify-admin">
                  store setup checklist
                </Link>
                .
              </p>
            ) : null}
          </div>
        ) : null}
        <Button onClick={() => test.mutate()} disabled={test.isPending} variant="gold">
          <PlugZap /> {test.isPending ? 'Testing...' : state === 'done' ? 'Test again' : 'Test Connection'}
        </Button>
      </CardContent>
    </Card>
  );
}
