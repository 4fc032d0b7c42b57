import { Clock, Smile, Star } from 'lucide-react';
import { BUSINESS } from '#shared/catalogue';
import { Card, CardContent } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { usePageTitle } from '#web/lib/use-page-title';
import { useReviewSummary, useReviews } from '#web/features/reviews/api';
import { ReviewForm } from '#web/features/reviews/review-form';
import { ReviewList } from '#web/features/reviews/review-list';
import { StarDisplay } from '#web/features/reviews/star-rating';

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
          {summary.isLoading
            ? ''
            : summary.isError
              ? 'Rating unavailable right now'
              : s && s.count > 0
                ? `Based on ${s.count} verified review${s.count === 1 ? '' : 's'}`
                : 'No ratings yet'}
        </p>
      </CardContent>
    </Card>
  );
}

function Claim({ icon: Icon, value, label }: { icon: typeof Star; value: string; label: string }) {
  return (
    <Card>
      <CardContent className="flex h-full flex-col items-center justify-start gap-2 p-6 text-center">
        <Icon aria-hidden="true" className="size-6 text-gold" />
        <h2 className="text-sm font-medium text-muted-foreground">{label}</h2>
        <p className="text-3xl font-bold sm:text-2xl lg:text-4xl">{value}</p>
      </CardContent>
    </Card>
  );
}

export default function ReviewsPage() {
  usePageTitle('Customer Reviews', 'Read verified reviews of our premium metal business cards and digital profiles, and leave your own.');
  const reviews = useReviews();
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Customer Reviews</h1>
        <p className="mt-3 text-muted-foreground">
          What our customers say about their metal cards and digital profiles. Every review is verified before it is published.
        </p>
      </header>

      <section aria-label="Ratings" className="mt-10 grid grid-cols-1 gap-4 sm:grid-cols-3">
        <AverageCard />
        <Claim icon={Smile} value={BUSINESS.claims.satisfaction} label="Customer Satisfaction" />
        <Claim icon={Clock} value={BUSINESS.claims.averageDelivery} label="Average Delivery" />
      </section>

      <div className="mt-10 grid grid-cols-1 gap-8 lg:grid-cols-5">
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
