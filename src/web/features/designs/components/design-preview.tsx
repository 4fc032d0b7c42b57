import { LegalConsent } from '#web/components/legal-consent';
import { useEffect, useState } from 'react';
import { cardType as findCardType, type CardTypeId } from '#shared/catalogue';
import type { CardData } from '#shared/templates/fields';
import type { SvgTemplate } from '#shared/schemas/templates';
import { FilledCard } from '#web/components/card-preview';
import { PageSpinner } from '#web/components/ui/spinner';
import { cn } from '#web/lib/utils';
import { previewStyleOf } from '#web/features/designs/design-parts';
import { EngravedCard, EngravedNote, engravedTitle } from './engraved-preview';

/** What every preview of the design draws from. */
export interface PreviewInput {
  selected: SvgTemplate | undefined;
  data: CardData;
  qrUrl: string | null;
  logoHref: string | null | undefined;
  cardType: CardTypeId;
}

/**
 * The desktop's live preview: each side in colour and, beside it, as its metal makes it (the
 * colour cards first: `card-pair`, as before, holds the colour front's drawing first).
 */
export function DesignPreviewCard({ p, loading, onTruncated }: { p: PreviewInput; loading: boolean; onTruncated: (fields: string[]) => void }) {
  const { selected } = p;
  const name = selected?.name ?? 'Card';
  const title = engravedTitle(p.cardType);
  const metal = findCardType(p.cardType)?.label ?? 'the metal';
  return (
    <>
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Live Preview</h2>
        {selected ? (
          <span className="text-xs uppercase tracking-wider text-muted-foreground" data-testid="preview-style">
            {previewStyleOf(selected.name)} style · {selected.name}
          </span>
        ) : null}
      </div>
      {loading ? (
        <PageSpinner />
      ) : (
        <div className="space-y-3" data-testid="card-pair">
          <div className="grid grid-cols-2 gap-3 text-center text-xs text-muted-foreground" aria-hidden="true">
            <span>Colour preview</span>
            <span>
              {title} on {metal}
            </span>
          </div>
          {(['front', 'back'] as const).map((side) => (
            <figure key={side} className="grid grid-cols-2 gap-3">
              <FilledCard template={selected?.[side]} data={p.data} qrUrl={p.qrUrl} logoHref={p.logoHref} label={`${name} ${side} preview`} onTruncated={side === 'front' ? onTruncated : undefined} />
              <EngravedCard template={selected?.[side]} data={p.data} qrUrl={p.qrUrl} logoHref={p.logoHref} cardType={p.cardType} label={`${name} ${side} ${title.toLowerCase()}`} />
              <figcaption className="col-span-2 text-center text-xs text-muted-foreground">{side === 'front' ? 'Front' : 'Back'}</figcaption>
            </figure>
          ))}
          <EngravedNote cardType={p.cardType} />
        </div>
      )}
    </>
  );
}

/** The site header's height, so the phone's preview sticks just under it. */
function useHeaderHeight(): number {
  const [h, setH] = useState(64);
  useEffect(() => {
    const header = document.querySelector('header');
    if (!header) return;
    const measure = () => setH(Math.round(header.getBoundingClientRect().height));
    measure();
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(measure) : null;
    ro?.observe(header);
    return () => ro?.disconnect();
  }, []);
  return h;
}

/**
 * The phone's live preview (issue 37): on top of the fields and sticky under the header, compact:
 * one side at a time, in colour and as the metal makes it, side by side.
 */
export function StickyPreview({ p, loading, onTruncated }: { p: PreviewInput; loading: boolean; onTruncated: (fields: string[]) => void }) {
  const [side, setSide] = useState<'front' | 'back'>('front');
  const top = useHeaderHeight();
  const { selected } = p;
  const name = selected?.name ?? 'Card';
  const template = side === 'front' ? selected?.front : selected?.back;
  const title = engravedTitle(p.cardType);
  return (
    <div className="sticky z-30 -mx-4 border-b border-border bg-background/95 px-4 pb-2 pt-2 backdrop-blur" style={{ top }} data-testid="sticky-preview" aria-label="Live preview" role="region">
      <div className="mx-auto max-w-xl">
        <div className="mb-1.5 flex items-center justify-between gap-2">
          <h2 className="text-sm font-semibold">Live Preview</h2>
          <div role="radiogroup" aria-label="Side shown" className="flex gap-1 text-xs">
            {(['front', 'back'] as const).map((s) => (
              <button
                key={s}
                type="button"
                role="radio"
                aria-checked={side === s}
                onClick={() => setSide(s)}
                className={cn('min-h-8 cursor-pointer rounded-md px-3 capitalize', side === s ? 'bg-accent font-medium text-foreground' : 'text-muted-foreground')}
              >
                {s}
              </button>
            ))}
          </div>
        </div>
        {loading ? (
          <PageSpinner />
        ) : (
          <div className="grid grid-cols-2 gap-2">
            <figure className="min-w-0">
              <FilledCard template={template} data={p.data} qrUrl={p.qrUrl} logoHref={p.logoHref} label={`${name} ${side} preview`} className="rounded-md" onTruncated={side === 'front' ? onTruncated : undefined} />
              <figcaption className="mt-0.5 text-center text-[11px] text-muted-foreground">Colour</figcaption>
            </figure>
            <figure className="min-w-0" data-testid="engraved-preview">
              <EngravedCard template={template} data={p.data} qrUrl={p.qrUrl} logoHref={p.logoHref} cardType={p.cardType} label={`${name} ${side} ${title.toLowerCase()}`} className="[&_[role=img]]:rounded-md" />
              <figcaption className="mt-0.5 text-center text-[11px] text-muted-foreground">{title}</figcaption>
            </figure>
          </div>
        )}
      </div>
    </div>
  );
}

/** The line the order form carries (decision 37-01): placing or sending a design accepts the terms. */
export function DesignLegal({ action }: { action: string }) {
  return <LegalConsent action={action} testId="design-legal" />;
}
