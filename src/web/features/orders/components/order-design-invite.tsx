import { Link } from 'react-router';
import { Brush } from 'lucide-react';
import { designOrderPath } from '#shared/routes';
import type { OrderStatusView } from '#shared/schemas/orders';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader } from '#web/components/ui/card';

/**
 * The order page of an order without a card design yet (issue 35): "Design your card" opens the
 * designer for this very order (`/design?order={id}`), which attaches the design to it. An order
 * not yet claimed is claimed first (the link in the order e-mail).
 */
export function OrderDesignInvite({ order }: { order: Pick<OrderStatusView, 'id' | 'design' | 'status' | 'waitsForProfile'> }) {
  if (order.design || !['pending', 'processing'].includes(order.status)) return null;
  return (
    <Card data-testid="order-design-invite">
      <CardHeader>
        <h2 className="text-lg font-semibold">Your card design</h2>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        {order.waitsForProfile ? (
          <p className="text-muted-foreground">Claim this order with the link in your order e-mail, then design its card here.</p>
        ) : (
          <>
            <p className="text-muted-foreground">This order has no card design yet. Design it now: it is attached to this order and sent to our team for review.</p>
            <Button asChild variant="gold">
              <Link to={designOrderPath(order.id)}>
                <Brush /> Design your card
              </Link>
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
