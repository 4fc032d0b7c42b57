import { BadgeCheck, ShieldCheck } from 'lucide-react';
import type { PublicReview } from '#shared/schemas/reviews';
import { Card, CardContent } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { StarDisplay } from './star-rating';

/** The first two letters of the name, for the avatar. */
export function initials(name: string): string {
  return Array.from(name.trim()).slice(0, 2).join('').toUpperCase();
}

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

export function ReviewItem({ review }: { review: PublicReview }) {
  return (
    <Card data-testid="review-item">
      <CardContent className="flex gap-4 p-5">
        <div aria-hidden="true" className="flex size-11 shrink-0 items-center justify-center rounded-full bg-gold/15 text-sm font-semibold text-amber-800 dark:text-gold">
          {initials(review.customerName)}
        </div>
        <div className="min-w-0 flex-1 space-y-1.5">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h3 className="font-semibold break-words">{review.title}</h3>
            <StarDisplay value={review.rating} />
          </div>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
            <span className="font-medium text-foreground break-all">{review.customerName}</span>
            {review.verification === 'purchase' ? (
              <span data-testid="badge-verified-purchase" className="inline-flex items-center gap-1 rounded-full bg-green-500/15 px-2 py-0.5 text-xs font-semibold text-green-700 dark:text-green-300">
                <BadgeCheck aria-hidden="true" className="size-3.5" />
                Verified purchase
              </span>
            ) : review.verification === 'staff' ? (
              <span data-testid="badge-approved-by-staff" className="inline-flex items-center gap-1 rounded-full bg-muted px-2 py-0.5 text-xs font-semibold text-muted-foreground">
                <ShieldCheck aria-hidden="true" className="size-3.5" />
                Approved by staff
              </span>
            ) : null}
            <time dateTime={review.createdAt}>{dateFormat.format(new Date(review.createdAt))}</time>
          </p>
          <p className="whitespace-pre-line break-words text-sm leading-relaxed">{review.comment}</p>
        </div>
      </CardContent>
    </Card>
  );
}

export function ReviewListSkeleton({ count = 3 }: { count?: number }) {
  return (
    <div className="space-y-4" role="status" aria-label="Loading reviews">
      {Array.from({ length: count }, (_, i) => (
        <Card key={i}>
          <CardContent className="flex gap-4 p-5">
            <Skeleton className="size-11 shrink-0 rounded-full" />
            <div className="flex-1 space-y-2.5">
              <Skeleton className="h-5 w-2/3" />
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-5/6" />
            </div>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

export function ReviewList({ reviews, isLoading, isError }: { reviews: PublicReview[] | undefined; isLoading: boolean; isError: boolean }) {
  if (isLoading) return <ReviewListSkeleton />;
  if (isError) return <p className="rounded-lg border border-border p-6 text-center text-muted-foreground">Reviews could not be loaded. Please try again later.</p>;
  if (!reviews || reviews.length === 0)
    return <p className="rounded-lg border border-dashed border-border p-8 text-center text-muted-foreground">No reviews yet. Be the first to leave a review!</p>;
  return (
    <ul className="space-y-4" aria-label="Customer reviews">
      {reviews.map((r) => (
        <li key={r.id}>
          <ReviewItem review={r} />
        </li>
      ))}
    </ul>
  );
}
