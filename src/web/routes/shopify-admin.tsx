import { Link } from 'react-router';
import { CheckCircle2, CircleDashed } from 'lucide-react';
import { STORE_REFERENCE_PRODUCTS } from '#shared/catalogue';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { usePageTitle } from '#web/lib/use-page-title';
import { useAuth } from '#web/lib/session/use-auth';
import { useStoreStatus } from '#web/features/shopify/api';
import { StaffGate } from '#web/features/shopify/staff-gate';

/** Store setup checklist: which settings are present, the three reference products and prices. */
export default function ShopifyAdminPage() {
  usePageTitle('Store Setup');
  return (
    <section className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="mb-2 text-3xl font-bold tracking-tight">Store Setup</h1>
      <p className="mb-6 text-muted-foreground">Connect the online store so every order e-mail carries a checkout link.</p>
      <StaffGate>
        <Checklist />
      </StaffGate>
    </section>
  );
}

function Step({ done, title, children }: { done: boolean | null; title: string; children: React.ReactNode }) {
  return (
    <li className="flex gap-3" data-done={done === null ? 'manual' : String(done)}>
      {done ? <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-600" aria-hidden="true" /> : <CircleDashed className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />}
      <div className="space-y-1">
        <p className="font-medium">
          {title}
          {done === true ? <span className="sr-only"> (done)</span> : done === false ? <span className="sr-only"> (to do)</span> : null}
        </p>
        <div className="text-sm text-muted-foreground">{children}</div>
      </div>
    </li>
  );
}

function Checklist() {
  const { isAdmin } = useAuth();
  const { data, isLoading } = useStoreStatus(isAdmin);
  const present = (name: string) => data?.settings.find((s) => s.name === name)?.present ?? false;

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <div className="flex items-center justify-between gap-3">
            <h2 className="text-lg font-semibold">Checklist</h2>
            {data ? (
              <Badge variant={data.configured ? 'green' : 'yellow'} data-testid="store-configured">
                {data.configured ? 'Configured' : 'Not configured'}
              </Badge>
            ) : null}
          </div>
          <CardDescription>Shopify Storefront API version {data?.apiVersion ?? '2025-01'}.</CardDescription>
        </CardHeader>
        <CardContent>
          {isLoading ? (
            <Skeleton className="h-40 w-full" />
          ) : (
            <ol className="space-y-4" aria-label="Store setup steps">
              <Step done={null} title="Create the three products in Shopify">
                Each with one variant, at the reference prices below. The checkout adds the first product's first variant and carries the order's details
                (card type, style, quantity, delivery, customer, calculated total and delivery fee) as line attributes.
              </Step>
              <Step done={null} title="Create a Storefront API access token">
                In the Shopify admin: Settings, Apps and sales channels, Develop apps; give the app the unauthenticated cart and product read scopes.
              </Step>
              <Step done={present('SHOPIFY_STORE_DOMAIN')} title="Set SHOPIFY_STORE_DOMAIN">
                The store's domain, e.g. <code>your-store.myshopify.com</code>.{' '}
                {data?.storeDomain ? (
                  <span>
                    Now: <strong data-testid="store-domain">{data.storeDomain}</strong>
                  </span>
                ) : (
                  'Not set.'
                )}{' '}
                Only checkout links on this host are ever followed.
              </Step>
              <Step done={present('SHOPIFY_STOREFRONT_TOKEN')} title="Set SHOPIFY_STOREFRONT_TOKEN">
                {present('SHOPIFY_STOREFRONT_TOKEN') ? 'Present (never shown here).' : 'Not set.'} Without both settings, orders still succeed and customers get a
                link to their own order page.
              </Step>
              <Step done={null} title="Restart the server and run the connection test">
                <Link className="underline" to="/shopify-test">
                  Open the connection test
                </Link>
                .
              </Step>
            </ol>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <h2 className="text-lg font-semibold">Reference products</h2>
        </CardHeader>
        <CardContent>
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-muted-foreground">
                <th className="py-1 font-medium">Product</th>
                <th className="py-1 text-right font-medium">Price (USD)</th>
              </tr>
            </thead>
            <tbody>
              {STORE_REFERENCE_PRODUCTS.map((p) => (
                <tr key={p.price} className="border-t border-border">
                  <td className="py-2">{p.title}</td>
                  <td className="py-2 text-right font-medium" data-testid="reference-price">
                    {p.price}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardContent>
      </Card>

      <Button asChild variant="outline">
        <Link to="/shopify-test">Test the connection</Link>
      </Button>
    </div>
  );
}
