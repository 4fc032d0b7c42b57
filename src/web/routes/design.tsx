import { Suspense, lazy, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { MyOrder } from '#shared/schemas/orders';
import { PageSpinner } from '#web/components/ui/spinner';
import { useAuth } from '#web/lib/session/use-auth';
import { AuthRequired } from '#web/components/auth-required';
import { usePageTitle } from '#web/lib/use-page-title';
import { DesignWizard, type CheckoutSlot, type DesignOrder } from '#web/features/designs/components/design-wizard';
import { useSvgTemplates } from '#web/features/templates/api';
import { useProfile } from '#web/features/profile/api';
import { useMyOrderList } from '#web/features/orders/checkout-api';

// the checkout (address validation: zod) loads when the customer gets there; the designer stays light
const loadCheckout = () => import('#web/features/orders/components/design-checkout');
const DesignCheckout = lazy(() => loadCheckout().then((m) => ({ default: m.DesignCheckout })));

/** Statuses in which an order's design may still be placed (the server says the same with a 409). */
const DESIGNABLE = new Set(['pending', 'processing']);

const designOrderOf = (o: MyOrder): DesignOrder => ({
  id: o.id,
  cardType: o.cardType,
  cardTypeLabel: o.cardTypeLabel,
  quantity: o.quantity,
  // no design yet (designPath: not a team order), or one still in review or sent back (replaced)
  designable: DESIGNABLE.has(o.status) && (o.designPath !== null || (!!o.design && o.design.status !== 'approved')),
});

const checkout = (slot: CheckoutSlot) => (
  <Suspense fallback={<PageSpinner />}>
    <DesignCheckout {...slot} />
  </Suspense>
);

/** The order of `?order={id}` among the user's orders (undefined while loading, null when not theirs). */
function useDesignOrder(): DesignOrder | null | undefined {
  const [params] = useSearchParams();
  const raw = params.get('order');
  const mine = useMyOrderList(!!raw);
  if (!raw) return null;
  if (mine.isLoading) return undefined;
  const o = mine.data?.orders.find((x) => String(x.id) === raw);
  return o ? designOrderOf(o) : null;
}

/** The designer with the card templates it offers, the user's profile and the order it designs for (asked once the visitor is signed in). */
function Designer({ userEmail }: { userEmail: string }) {
  const templates = useSvgTemplates();
  const profile = useProfile();
  const order = useDesignOrder();
  // fetched while the customer designs, so "Continue to checkout" opens at once
  useEffect(() => {
    void loadCheckout();
  }, []);
  return <DesignWizard userEmail={userEmail} templates={templates} profile={profile} order={order} renderCheckout={checkout} />;
}

/** /design: the one designer (issue 35; /create-card and /card-generator redirect here, decision 35-03). */
export default function DesignPage() {
  usePageTitle('Design Your Card', 'Choose a template and card type, enter your details and see your metal business card live, front and back.');
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner />;
  if (!user) return <AuthRequired note="Please sign in to design your card and send it for review." />;
  return <Designer userEmail={user.email} />;
}
