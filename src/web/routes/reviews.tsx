import { useState } from 'react';
import { BadgeCheck, Clock, Smile, Star } from 'lucide-react';
import { Card, CardContent } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { PageSpinner } from '#web/components/ui/spinner';
import { cn } from '#web/lib/utils';
import { usePageTitle } from '#web/lib/use-page-title';
import { useReviewSummary, useReviews } from '#web/features/reviews/api';
import { ReviewForm } from '#web/features/reviews/review-form';
import { ReviewList } from '#web/features/reviews/review-list';
import { StarDisplay } from '#web/features/reviews/star-rating';
import { useSiteSettings } from '#web/features/settings/api';

/**
 * The average rating, shown only when it says something (issue 37, decision 37-01): while it
 * loads, when it failed (it says so), or when there is at least one published review. With none,
 * the card is not shown at all (no "No ratings yet" beside the shop's claims); the list below
 * says there are no reviews yet.
 */
function AverageCard() {
  const summary = useReviewSummary();
  const s = summary.data;
  return (
    <Card>
      <CardContent className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center">
        <Star aria-hidden="true" className="size-6 text-gold" />
        <h2 className="text-sm font-medium text-muted-foreground">Average Rating</h2>
        {/* fixed heights: the numbers arriving do not move anything */}
        <div className="flex h-10 items-center" data-testid="average-rating">
          {summary.isLoading ? (
            <Skeleton className="h-9 w-16" />
          ) : (
            <p className="text-3xl font-bold tabular-nums sm:text-2xl lg:text-4xl">{s && s.count > 0 ? s.average.toFixed(1) : '–'}</p>
          )}
        </div>
        <div className="flex h-5 items-center">{s && s.count > 0 ? <StarDisplay value={s.average} /> : null}</div>
        <p className="h-5 text-sm text-muted-foreground">
          {summary.isLoading ? '' : summary.isError ? 'Rating unavailable right now' : s ? `Based on ${s.count} verified review${s.count === 1 ? '' : 's'}` : ''}
        </p>
      </CardContent>
    </Card>
  );
}

const CLAIM_ICONS: Record<string, typeof Star> = { satisfaction: Smile, 'average-delivery': Clock };

/** One of the shop's claims as staff set it in Admin > Settings (hidden ones never reach the page). */
function Claim({ id, text }: { id: string; text: string }) {
  const Icon = CLAIM_ICONS[id] ?? BadgeCheck;
  return (
    <Card data-testid="shop-claim">
      <CardContent className="flex h-full flex-col items-center justify-center gap-3 p-6 text-center">
        <Icon aria-hidden="true" className="size-6 text-gold" />
        <p className="text-xl font-bold [overflow-wrap:anywhere] lg:text-2xl">{text}</p>
      </CardContent>
    </Card>
  );
}

/** The average rating (when there is one) and the claims staff left shown. */
function Ratings() {
  const summary = useReviewSummary();
  const settings = useSiteSettings();
  const showAverage = summary.isLoading || summary.isError || (summary.data?.count ?? 0) > 0;
  const claims = settings.data?.claims ?? [];
  const count = (showAverage ? 1 : 0) + claims.length;
  if (!count) return null;
  return (
    <section
      aria-label="Ratings"
      className={cn('mx-auto mt-10 grid grid-cols-1 gap-4', count >= 3 ? 'sm:grid-cols-3' : count === 2 ? 'max-w-3xl sm:grid-cols-2' : 'max-w-sm')}
    >
      {showAverage ? <AverageCard /> : null}
      {claims.map((c) => (
        <Claim key={c.id} id={c.id} text={c.text} />
      ))}
    </section>
  );
}

export default function ReviewsPage() {
  usePageTitle('Customer Reviews', 'Read verified reviews of our premium metal business cards and digital profiles, and leave your own.');
  const reviews = useReviews();
  // the ratings row's size depends on both answers (an average only with reviews, the claims staff
  // left shown): the page below the header waits for them, so nothing moves when they arrive (on a
  // slow phone the row shrank from three placeholders to two cards and pushed the form up)
  const summary = useReviewSummary();
  const settings = useSiteSettings();
  // once shown, the page stays (a failed answer is asked again when the rating card mounts, which
  // makes the query pending again: without the latch the page would swap back to the spinner)
  const [shown, setShown] = useState(false);
  const answered = !summary.isLoading && !settings.isLoading;
  if (answered && !shown) setShown(true);
  const settled = answered || shown;
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Customer Reviews</h1>
        <p className="mt-3 text-muted-foreground">
          What our customers say about their metal cards and digital profiles. Every review is verified before it is published.
        </p>
      </header>

      {settled ? <Ratings /> : <PageSpinner />}

      <div className={cn('mt-10 grid grid-cols-1 gap-8 lg:grid-cols-5', !settled && 'hidden')}>
        <div className="lg:col-span-2">
          <div className="lg:sticky lg:top-28">
            <ReviewForm />
          </div>
        </div>
        <section aria-labelledby="reviews-heading" className="lg:col-span-3">
          <h2 id="reviews-heading" className="mb-4 text-xl font-semibold">
            What Customers Say
          </h2>
          <ReviewList reviews={reviews.data} isLoading={reviews.isLoading} isError={reviews.isError} />
        </section>
      </div>
    </div>
  );
}
