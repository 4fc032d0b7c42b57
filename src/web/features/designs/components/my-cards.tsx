import { Link } from 'react-router';
import { Palette, PencilLine, QrCode as QrIcon } from 'lucide-react';
import { cardType as cardTypeInfo } from '#shared/catalogue';
import { MY_ORDERS_PATH, editDesignPath } from '#shared/routes';
import type { UserCard } from '#shared/schemas/profile';
import { StatusBadge } from '#web/components/status-badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';

/** Dashboard tab Card: each submitted card design with its review status. */
export function MyCards({ cards }: { cards: UserCard[] }) {
  if (!cards.length) {
    return (
      <Card className="flex flex-col items-start gap-3 p-6">
        <h2 className="text-lg font-semibold">No card yet</h2>
        <p className="text-sm text-muted-foreground">Design your metal card from one of our templates; we review it before production.</p>
        <Button asChild>
          <Link to="/design">
            <Palette aria-hidden="true" />
            Design Your Card
          </Link>
        </Button>
      </Card>
    );
  }
  return (
    <div className="space-y-4">
      {cards.map((c) => (
        <Card key={c.id} className="space-y-4 p-6" data-testid="card-info">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">{c.templateName ? `${c.templateName} template` : `Template ${c.templateId}`}</h2>
            <StatusBadge of="design" status={c.status} />
          </div>
          <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-xs uppercase tracking-wide text-muted-foreground">Card type</dt>
              <dd>{cardTypeInfo(c.cardType)?.label ?? c.cardType}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-muted-foreground">Engraving</dt>
              <dd>{c.customizations.textColor.toUpperCase() === '#FFD700' ? 'Gold' : 'Silver engraving'}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-muted-foreground">QR code</dt>
              <dd>{c.qrGenerated ? 'Generated' : 'Not generated yet'}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-muted-foreground">Submitted</dt>
              <dd>{new Date(c.submittedAt).toLocaleString()}</dd>
            </div>
            {c.reviewNotes ? (
              <div className="sm:col-span-2">
                <dt className="text-xs uppercase tracking-wide text-muted-foreground">Review note</dt>
                <dd>{c.reviewNotes}</dd>
              </div>
            ) : null}
          </dl>
          <div className="flex flex-wrap gap-2">
            {c.status === 'rejected' ? (
              <Button asChild size="sm" variant="gold">
                <Link to={editDesignPath(c.id)}>
                  <PencilLine aria-hidden="true" />
                  Edit and resubmit
                </Link>
              </Button>
            ) : null}
            <Button asChild size="sm" variant="outline">
              <Link to={MY_ORDERS_PATH}>My Orders</Link>
            </Button>
            <Button asChild size="sm">
              <Link to="/design">
                <Palette aria-hidden="true" />
                Design Another Card
              </Link>
            </Button>
            <Button asChild size="sm" variant="outline">
              <Link to="/profile?tab=share">
                <QrIcon aria-hidden="true" />
                View QR Code
              </Link>
            </Button>
          </div>
        </Card>
      ))}
    </div>
  );
}
