import { useEffect, useMemo, useRef } from 'react';
import { fillTemplateDetailed } from '#shared/templates/fill';
import { scopeSvgStyles } from '#shared/templates/scope-styles';
import type { CardData } from '#shared/templates/fields';
import { fontFaceCss } from '#shared/fonts';
import { cn } from '#web/lib/utils';

let fontsInjected = false;
/** The bundled card fonts (served at /fonts/...) so previews look like the printed card. */
export function useCardFonts() {
  useEffect(() => {
    if (fontsInjected || typeof document === 'undefined') return;
    fontsInjected = true;
    const style = document.createElement('style');
    style.id = 'card-fonts';
    style.textContent = fontFaceCss('/fonts/');
    document.head.appendChild(style);
  }, []);
}

let seq = 0;
/** Several cards on one page must not share ids (gradients, clip paths): give each its own prefix. */
export function scopeSvgIds(svg: string, prefix: string): string {
  return svg
    .replace(/\bid="([^"]+)"/g, (_m, id: string) => `id="${prefix}${id}"`)
    .replace(/url\(#([^)]+)\)/g, (_m, id: string) => `url(#${prefix}${id})`)
    .replace(/href="#([^"]+)"/g, (_m, id: string) => `href="#${prefix}${id}"`);
}

/**
 * A card side filled in the browser with the same shared code the server renders with.
 * The template comes from our database (sanitized when it was uploaded) and every value is
 * escaped by the filler, so the markup is safe to place in the page.
 */
export function FilledCard({
  template,
  data,
  qrUrl,
  logoHref,
  label,
  className,
  onTruncated,
}: {
  template: string | null | undefined;
  data: CardData;
  qrUrl?: string | null;
  logoHref?: string | null;
  label: string;
  className?: string;
  onTruncated?: (fields: string[]) => void;
}) {
  useCardFonts();
  const prefix = useRef(`c${++seq}-`).current;
  const filled = useMemo(() => {
    if (!template) return null;
    try {
      return fillTemplateDetailed(template, data, { qrUrl, logoHref });
    } catch {
      return null;
    }
  }, [template, data, qrUrl, logoHref]);
  const truncatedKey = filled?.truncated.join(',') ?? '';
  useEffect(() => {
    onTruncated?.(truncatedKey ? truncatedKey.split(',') : []);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [truncatedKey]);

  if (!filled) {
    return (
      <div role="img" aria-label={label} className={cn('flex aspect-[7/4] w-full items-center justify-center rounded-xl bg-black text-sm text-neutral-400', className)}>
        Template preview unavailable
      </div>
    );
  }
  return (
    <div
      role="img"
      aria-label={label}
      className={cn('aspect-[7/4] w-full overflow-hidden rounded-xl bg-black shadow-lg ring-1 ring-white/10 [&>svg]:block [&>svg]:h-full [&>svg]:w-full', className)}
      // the template's own <style> applies inside this card only (issue 19)
      data-card-scope={prefix}
      dangerouslySetInnerHTML={{ __html: scopeSvgStyles(scopeSvgIds(filled.svg, prefix), prefix) }}
    />
  );
}

/** Front and back side by side (stacked on small screens), or always stacked. */
export function CardPair(
  props: Omit<Parameters<typeof FilledCard>[0], 'template' | 'label'> & { front?: string | null; back?: string | null; name?: string; layout?: 'row' | 'stack' },
) {
  const { front, back, name = 'Card', layout = 'row', ...rest } = props;
  return (
    <div className={cn('grid gap-4', layout === 'row' && 'sm:grid-cols-2')} data-testid="card-pair">
      <figure className="space-y-2">
        <FilledCard template={front} label={`${name} front preview`} {...rest} />
        <figcaption className="text-center text-xs text-muted-foreground">Front</figcaption>
      </figure>
      <figure className="space-y-2">
        <FilledCard template={back} label={`${name} back preview`} {...rest} onTruncated={undefined} />
        <figcaption className="text-center text-xs text-muted-foreground">Back</figcaption>
      </figure>
    </div>
  );
}
