import { Link, useLocation, useSearchParams } from 'react-router';
import { CheckCircle2, Factory, Mail, QrCode, SearchCheck } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { usePageTitle } from '#web/lib/use-page-title';
import { OrderPlaced, orderSuccessState } from '#web/features/orders/components/order-placed';
import { StepList } from '#web/features/orders/components/step-list';

const NEXT_STEPS = [
  { icon: SearchCheck, title: 'Design review', text: 'Our team checks your card design and details, usually within one business day.' },
  { icon: QrCode, title: 'QR code generation', text: 'We generate the QR code that opens your digital profile and place it on the back of your card.' },
  { icon: Factory, title: 'Approval and production', text: 'Once approved, your metal cards go into production (5-7 business days).' },
  { icon: Mail, title: 'Email updates', text: 'We email you at each stage, from review to shipping, so you always know where your order is.' },
];

export default function OrderSuccessPage() {
  const [params] = useSearchParams();
  const placed = orderSuccessState(useLocation().state);
  usePageTitle(placed ? 'Order Placed' : 'Card Submitted', placed ? 'Your order is placed. Here is what happens next.' : 'Your card has been submitted. Here is what happens next.');
  const raw = params.get('orderId');
  const orderId = raw && /^[A-Za-z0-9-]{1,40}$/.test(raw) ? raw : null;
  // a plain order from /order (router state from the form); a design submission keeps the spec's page
  if (placed) return <OrderPlaced orderId={orderId} order={placed} />;
  return (
    <div className="mx-auto max-w-3xl px-4 py-14 sm:py-20">
      <div className="text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-14 text-green-500" />
        <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">Card Submitted Successfully!</h1>
        <p className="mt-3 text-muted-foreground">Thank you. Here is what happens next.</p>
        {orderId ? (
          <p className="mt-5 inline-block rounded-lg border border-border bg-card px-4 py-2 text-sm" data-testid="order-id">
            Order ID: <span className="font-mono font-semibold">#{orderId}</span>
          </p>
        ) : null}
      </div>
      <StepList steps={NEXT_STEPS} />
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        <Button asChild variant="gold">
          <Link to="/">Back to Home</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/templates">Browse Templates</Link>
        </Button>
      </div>
    </div>
  );
}
