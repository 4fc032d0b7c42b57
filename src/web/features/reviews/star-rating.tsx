import { Star } from 'lucide-react';
import { REVIEW_LIMITS } from '#shared/schemas/reviews';
import { cn } from '#web/lib/utils';

const STARS = Array.from({ length: REVIEW_LIMITS.ratingMax }, (_, i) => i + 1);

/** Read-only stars; `value` may be fractional (the average), filled to the nearest half. */
export function StarDisplay({ value, className, size = 'size-4' }: { value: number; className?: string; size?: string }) {
  const rounded = Math.round(value * 2) / 2;
  return (
    <span className={cn('inline-flex items-center gap-0.5', className)} role="img" aria-label={`Rated ${value} out of ${REVIEW_LIMITS.ratingMax}`}>
      {STARS.map((n) => {
        const fill = rounded >= n ? 'full' : rounded >= n - 0.5 ? 'half' : 'none';
        return (
          <span key={n} className="relative inline-flex" aria-hidden="true">
            <Star className={cn(size, 'text-muted-foreground/40')} />
            {fill !== 'none' ? (
              <span className={cn('absolute inset-0 overflow-hidden', fill === 'half' && 'w-1/2')}>
                <Star className={cn(size, 'fill-gold text-gold')} />
              </span>
            ) : null}
          </span>
        );
      })}
    </span>
  );
}

/**
 * The rating picker: five native radio buttons drawn as stars, so arrow keys, Tab and screen
 * readers work as they do for any radio group.
 */
export function StarRatingInput({
  value,
  onChange,
  name,
  labelId,
  invalid,
  describedBy,
}: {
  value: number;
  onChange: (value: number) => void;
  name: string;
  labelId: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  return (
    <div role="radiogroup" aria-labelledby={labelId} aria-invalid={invalid || undefined} aria-describedby={describedBy} className="flex items-center gap-1">
      {STARS.map((n) => {
        // each label holds its radio: no id or `for` needed
        return (
          <label key={n} className="cursor-pointer rounded-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring">
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="sr-only"
              aria-label={`${n} star${n === 1 ? '' : 's'}`}
            />
            <Star aria-hidden="true" className={cn('size-7 transition-colors', n <= value ? 'fill-gold text-gold' : 'text-muted-foreground/50')} />
          </label>
        );
      })}
      <span className="ml-2 text-sm text-muted-foreground" aria-hidden="true">
        {value} / {REVIEW_LIMITS.ratingMax}
      </span>
    </div>
  );
}
