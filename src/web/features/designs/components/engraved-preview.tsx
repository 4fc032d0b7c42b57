import { useId, useMemo } from 'react';
import { cardType as findCardType, type CardTypeId } from '#shared/catalogue';
import { engravingFilter } from '#shared/templates/engraving';
import type { CardData } from '#shared/templates/fields';
import { FilledCard } from '#web/components/card-preview';
import { cn } from '#web/lib/utils';

/** "As engraved" on the engraved metals, "As printed" on Color Metal. */
export const engravedTitle = (cardType: CardTypeId) => (cardType === 'color' ? 'As printed' : 'As engraved');

/**
 * The SVG filter that turns the colour preview into the card as its metal makes it (decision 37-06),
 * from the print files' own rule (`#shared/templates/engraving`): on an engraved metal every pixel
 * becomes the metal or the engraving's one tone at the density the print file gives it (a white box
 * behind a logo becomes a solid engraved block, a blue logo a half-tone); on Color Metal what is too
 * light to print (white: there is no white ink) becomes the bare steel.
 */
function EngravingFilter({ id, cardType }: { id: string; cardType: CardTypeId }) {
  const f = useMemo(() => engravingFilter(cardType), [cardType]);
  const amount = f.amount.join(' ');
  return (
    <svg width="0" height="0" aria-hidden="true" focusable="false" className="absolute">
      <filter id={id} colorInterpolationFilters="sRGB" x="0" y="0" width="100%" height="100%">
        {f.engraved ? (
          <>
            <feColorMatrix type="matrix" values={`${amount} ${amount} ${amount} 0 0 0 1 0`} />
            <feComponentTransfer>
              <feFuncR type="table" tableValues={f.tables[0]} />
              <feFuncG type="table" tableValues={f.tables[1]} />
              <feFuncB type="table" tableValues={f.tables[2]} />
            </feComponentTransfer>
          </>
        ) : (
          <>
            <feColorMatrix in="SourceGraphic" type="matrix" values={`0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 ${amount}`} result="amount" />
            <feComponentTransfer in="amount" result="mask">
              <feFuncA type="discrete" tableValues={f.mask} />
            </feComponentTransfer>
            <feComposite in="SourceGraphic" in2="mask" operator="in" result="printed" />
            <feFlood floodColor={f.base} result="steel" />
            <feComposite in="steel" in2="SourceAlpha" operator="in" result="card" />
            <feComposite in="printed" in2="card" operator="over" />
          </>
        )}
      </filter>
    </svg>
  );
}

/** One side of the card as its metal makes it: the colour preview's own filling through the filter. */
export function EngravedCard({
  template,
  data,
  qrUrl,
  logoHref,
  cardType,
  label,
  className,
}: {
  template: string | null | undefined;
  data: CardData;
  qrUrl?: string | null;
  logoHref?: string | null;
  cardType: CardTypeId;
  label: string;
  className?: string;
}) {
  const id = `engrave-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <div className={cn('relative', className)} style={{ filter: `url(#${id})` }} data-testid="engraved-card" data-card-type={cardType}>
      <EngravingFilter id={id} cardType={cardType} />
      <FilledCard template={template} data={data} qrUrl={qrUrl} logoHref={logoHref} label={label} className="shadow-none" />
    </div>
  );
}

/** What the metal does to the artwork, in one line under the "as engraved" cards. */
export function EngravedNote({ cardType }: { cardType: CardTypeId }) {
  const metal = findCardType(cardType)?.label ?? 'the metal';
  return (
    <p className="text-xs text-muted-foreground" data-testid="engraved-preview" data-card-type={cardType}>
      <span className="font-medium text-foreground">
        {engravedTitle(cardType)} on {metal}:
      </span>{' '}
      {cardType === 'color'
        ? 'printed without white ink, so white and the lightest tones show the bare steel.'
        : 'one tone. Every colour becomes the engraving at its strength, and an opaque background is engraved as a solid block.'}
    </p>
  );
}
