import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ReviewCreateBody, REVIEW_LIMITS, type CreateReviewInput } from '#shared/schemas/reviews';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card';
import { FormField, Input, Label, Textarea } from '#web/components/ui/input';
import { ApiError, errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useAuth } from '#web/lib/session/use-auth';
import { useCreateReview } from './api';
import { StarRatingInput } from './star-rating';

type FormInput = {
  customerName: string;
  email: string;
  rating: number;
  title: string;
  comment: string;
  orderNumber: string;
};

const DEFAULTS: FormInput = { customerName: '', email: '', rating: REVIEW_LIMITS.ratingDefault, title: '', comment: '', orderNumber: '' };
const FIELDS = Object.keys(DEFAULTS) as Array<keyof FormInput>;

/** The leave-a-review form: the shared contract validates here and on the server. */
export function ReviewForm() {
  const create = useCreateReview();
  const { user } = useAuth();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<FormInput, unknown, CreateReviewInput>({
    resolver: zodResolver(ReviewCreateBody) as never,
    defaultValues: DEFAULTS,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  const onSubmit = handleSubmit(async (values) => {
    if (create.isPending) return;
    try {
      const result = await create.mutateAsync(values);
      reset(DEFAULTS);
      toast({ title: 'Thank you for your review!', description: result.message });
    } catch (err) {
      for (const [field, message] of Object.entries(fieldErrors(err))) {
        if ((FIELDS as string[]).includes(field)) setError(field as keyof FormInput, { message });
      }
      // a rate-limit answer says when to try again; anything else gets the spec's text
      const description = err instanceof ApiError && err.status === 429 ? errorMessage(err) : 'Please try again or contact us directly.';
      toast({ title: 'Submission Failed', description, variant: 'destructive' });
    }
  });

  const describe = (id: string, error?: unknown, hint?: boolean) => (error ? `${id}-error` : hint ? `${id}-hint` : undefined);

  return (
    <Card>
      <CardHeader>
        <h2 className="text-xl font-semibold leading-tight">Leave a Review</h2>
        <CardDescription>Reviews are published once they are verified. How yours is verified:</CardDescription>
        {/* what reviews.service.ts does (issue 37): only a signed-in order owner is verified at once */}
        <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground" data-testid="review-verification">
          <li>
            {user
              ? 'You are signed in: give the number of an order placed with this account and your review is published as soon as you send it.'
              : 'Signed in with the account that placed the order, and with its order number, your review is published as soon as you send it.'}{' '}
            One review per order is published this way.
          </li>
          <li>Any other review waits until our staff have checked it against our orders (the order number and e-mail help them), and appears once they verify it.</li>
          <li>We show your name, rating and review; never your e-mail. We do not e-mail you about it.</li>
        </ul>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate aria-label="Leave a review" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField id="review-name" label="Name" required error={errors.customerName?.message}>
            <Input
              id="review-name"
              autoComplete="name"
              maxLength={REVIEW_LIMITS.nameMax}
              aria-invalid={!!errors.customerName}
              aria-describedby={describe('review-name', errors.customerName)}
              {...register('customerName')}
            />
          </FormField>
          <FormField id="review-email" label="Email" required error={errors.email?.message} hint="Never shown publicly.">
            <Input
              id="review-email"
              type="email"
              autoComplete="email"
              maxLength={254}
              aria-invalid={!!errors.email}
              aria-describedby={describe('review-email', errors.email, true)}
              {...register('email')}
            />
          </FormField>
          <div className="space-y-1.5 sm:col-span-2">
            <Label id="review-rating-label">Rating</Label>
            <Controller
              control={control}
              name="rating"
              render={({ field }) => (
                <StarRatingInput
                  name="rating"
                  labelId="review-rating-label"
                  value={field.value}
                  onChange={field.onChange}
                  invalid={!!errors.rating}
                  describedBy={errors.rating ? 'review-rating-error' : undefined}
                />
              )}
            />
            {errors.rating ? (
              <p id="review-rating-error" role="alert" className="text-xs font-medium text-destructive">
                {errors.rating.message}
              </p>
            ) : null}
          </div>
          <FormField id="review-title" label="Review Title" required error={errors.title?.message} className="sm:col-span-2">
            <Input
              id="review-title"
              maxLength={REVIEW_LIMITS.titleMax}
              aria-invalid={!!errors.title}
              aria-describedby={describe('review-title', errors.title)}
              {...register('title')}
            />
          </FormField>
          <FormField id="review-comment" label="Your Review" required error={errors.comment?.message} className="sm:col-span-2">
            <Textarea
              id="review-comment"
              rows={5}
              maxLength={REVIEW_LIMITS.commentMax}
              aria-invalid={!!errors.comment}
              aria-describedby={describe('review-comment', errors.comment)}
              {...register('comment')}
            />
          </FormField>
          <FormField
            id="review-order"
            label="Order Number (optional)"
            error={errors.orderNumber?.message}
            hint="For example #1234. Verified at once if you are signed in with the account that placed the order."
            className="sm:col-span-2"
          >
            <Input
              id="review-order"
              inputMode="numeric"
              placeholder="#1234"
              maxLength={REVIEW_LIMITS.orderNumberMax}
              aria-invalid={!!errors.orderNumber}
              aria-describedby={describe('review-order', errors.orderNumber, true)}
              {...register('orderNumber')}
            />
          </FormField>
          <div className="sm:col-span-2">
            <Button type="submit" variant="gold" disabled={create.isPending} className="w-full sm:w-auto">
              {create.isPending ? 'Submitting...' : 'Submit Review'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
