import { useState } from 'react';
import { Link } from 'react-router';
import { CreditCard } from 'lucide-react';
import { templateThumbnailUrl } from '#shared/templates/urls';
import { templateDisplayName } from '#shared/templates/display-name';
import { cn } from '#web/lib/utils';

export interface ThumbnailTemplate {
  id: number;
  name: string;
  folder?: string;
  description?: string;
  version?: number;
}

/**
 * A template's rendered card: the front, and the back while the pointer is over it (when `hover`
 * is on), as the card is made: on its metal, never inverted (issue 37). When an image cannot be loaded, a black panel
 * with the logo and the template's name takes its place. With `linkTo`, the thumbnail is a link.
 */
export function TemplateThumbnail({
  template,
  hover = true,
  linkTo,
  className,
  priority = false,
}: {
  template: ThumbnailTemplate;
  hover?: boolean;
  linkTo?: string;
  className?: string;
  priority?: boolean;
}) {
  const [showBack, setShowBack] = useState(false);
  const name = templateDisplayName(template);
  const [failed, setFailed] = useState<{ front: boolean; back: boolean }>({ front: false, back: false });
  const side = hover && showBack && !failed.back ? 'back' : 'front';
  const broken = failed.front && (side === 'front' || failed.back);

  // spans (display: block/flex): the thumbnail also sits inside buttons (the designer's template
  // picker), where only phrasing content is allowed
  const body = (
    <span
      className={cn('group relative block aspect-[7/4] w-full overflow-hidden rounded-xl bg-black shadow-md ring-1 ring-black/10 dark:ring-white/10', className)}
      onPointerEnter={() => hover && setShowBack(true)}
      onPointerLeave={() => setShowBack(false)}
      onFocus={() => hover && setShowBack(true)}
      onBlur={() => setShowBack(false)}
      data-testid={`template-thumbnail-${template.id}`}
      data-side={broken ? 'fallback' : side}
    >
      {broken ? (
        <span className="flex h-full w-full flex-col items-center justify-center gap-2 bg-black text-white" data-testid="thumbnail-fallback">
          <CreditCard aria-hidden="true" className="size-8 text-gold" />
          <span className="text-sm font-semibold tracking-wide">{name}</span>
        </span>
      ) : (
        (['front', 'back'] as const).map((s) =>
          failed[s] || (s === 'back' && !hover) ? null : (
            <img
              key={s}
              src={templateThumbnailUrl(template.id, s, template.version)}
              alt={s === 'front' ? `${name} template, front` : `${name} template, back`}
              width={700}
              height={400}
              loading={priority && s === 'front' ? 'eager' : 'lazy'}
              decoding="async"
              onError={() => setFailed((f) => ({ ...f, [s]: true }))}
              className={cn(
                'absolute inset-0 h-full w-full object-cover transition-opacity duration-300',
                s === side ? 'opacity-100' : 'opacity-0',
              )}
              aria-hidden={s !== side}
            />
          ),
        )
      )}
    </span>
  );
  if (!linkTo) return body;
  return (
    <Link to={linkTo} aria-label={`${name} template`} className="block rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring">
      {body}
    </Link>
  );
}
