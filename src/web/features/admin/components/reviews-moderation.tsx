import { useState } from 'react';
import { BadgeCheck, EyeOff, Star } from 'lucide-react';
import { ADMIN_REVIEW_FILTERS, type AdminReviewFilter } from '#shared/schemas/reviews';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Select } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { useAdminReviews, useModerateReview } from '#web/features/admin/api';
import { formatDate } from '#web/features/admin/format';

const FILTER_LABELS: Record<AdminReviewFilter, string> = {
  pending: 'Waiting for verification',
  published: 'Published',
  hidden: 'Hidden',
  all: 'All reviews',
};

/** Customer reviews: verify (publish) or hide them. Unverified reviews are never shown on the site. */
export function ReviewsModeration() {
  const [filter, setFilter] = useState<AdminReviewFilter>('pending');
  const reviews = useAdminReviews(filter);
  const moderate = useModerateReview();
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">A review appears on the Reviews page only once it is verified.</p>
        <Select aria-label="Show reviews" className="w-56" value={filter} onChange={(e) => setFilter(e.target.value as AdminReviewFilter)}>
          {ADMIN_REVIEW_FILTERS.map((f) => (
            <option key={f} value={f}>
              {FILTER_LABELS[f]}
            </option>
          ))}
        </Select>
      </div>
      {reviews.isLoading ? <Skeleton className="h-40" /> : null}
      {reviews.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(reviews.error, 'Could not load reviews.')}
        </p>
      ) : null}
      {reviews.data && reviews.data.length === 0 ? (
        <Card className="p-8 text-center text-sm text-muted-foreground">{filter === 'pending' ? 'No reviews are waiting for verification.' : 'No reviews here.'}</Card>
      ) : null}
      <ul className="space-y-3">
        {reviews.data?.map((r) => (
          <li key={r.id}>
            <Card className="p-4" data-testid={`review-${r.id}`}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <p className="font-semibold">{r.title}</p>
                  <p className="text-xs text-muted-foreground">
                    {r.customerName} · {r.email} · {formatDate(r.createdAt)}
                    {r.orderNumber ? ` · order ${r.orderNumber}${r.matchedOrderId ? ' (matches a real order)' : ' (no matching order)'}` : ''}
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  <span className="flex items-center gap-0.5" aria-label={`${r.rating} out of 5 stars`}>
                    {Array.from({ length: 5 }, (_, i) => (
                      <Star key={i} aria-hidden="true" className={i < r.rating ? 'size-4 fill-gold text-gold' : 'size-4 text-muted-foreground'} />
                    ))}
                  </span>
                  {r.hidden ? <Badge variant="red">Hidden</Badge> : r.verification === 'purchase' ? <Badge variant="green">Verified purchase</Badge> : r.verified ? <Badge variant="green">Approved by staff</Badge> : <Badge variant="yellow">Unverified</Badge>}
                </div>
              </div>
              <p className="mt-2 whitespace-pre-wrap text-sm">{r.comment}</p>
              <div className="mt-3 flex gap-2">
                {!r.verified || r.hidden ? (
                  <Button size="sm" disabled={moderate.isPending} onClick={() => moderate.mutate({ id: r.id, change: { verified: true, hidden: false } })}>
                    <BadgeCheck aria-hidden="true" />
                    Verify
                  </Button>
                ) : null}
                {!r.hidden ? (
                  <Button size="sm" variant="outline" disabled={moderate.isPending} onClick={() => moderate.mutate({ id: r.id, change: { hidden: true } })}>
                    <EyeOff aria-hidden="true" />
                    Hide
                  </Button>
                ) : null}
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
