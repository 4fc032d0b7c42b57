import type { QrStyle } from '#shared/qr/qr-svg';
import { cn } from '#web/lib/utils';
import { getQrcode } from '#shared/contracts/profile';
import { endpointHref } from '#web/lib/endpoint';

/**
 * The one QR code image of the site: a real, scannable code at `size` pixels that carries `value`
 * (in `data-qr-value`, for tests and tools). `src` says who drew it:
 * - `useQrDataUrl()` (`#web/lib/qr-data-url`): drawn in the browser by the same renderer as
 *   GET /api/qrcode, for pages that already carry the encoder (profile, dashboard, card designer);
 * - `serverQrSrc()` (below): drawn by the server and cached a day by the browser, for pages on
 *   the first-load path (the home page), so the encoder stays out of their JavaScript.
 * A null `src` (nothing to encode yet) shows the titled placeholder box.
 */
export function QrImage({
  value,
  src,
  size,
  alt,
  className,
  lazy = false,
}: {
  value: string;
  src: string | null;
  size: number;
  alt: string;
  className?: string;
  /** load only when scrolled near (images below the fold) */
  lazy?: boolean;
}) {
  if (!src) {
    return (
      <div
        role="img"
        aria-label="QR Code"
        title="QR Code"
        style={{ width: size, height: size }}
        className={cn('flex items-center justify-center rounded-md border-2 border-dashed border-border bg-muted text-sm text-muted-foreground', className)}
      >
        QR Code
      </div>
    );
  }
  return (
    <img
      src={src}
      width={size}
      height={size}
      alt={alt}
      data-qr-value={value}
      className={cn('rounded-md bg-white', className)}
      loading={lazy ? 'lazy' : undefined}
      decoding="async"
    />
  );
}

/** The address of the server-drawn image of `value` (GET /api/qrcode); no encoder in the page. Default quiet zone 4 modules (ISO/IEC 18004, QR_QUIET_ZONE); drawn at twice the shown size (sharp on dense screens, and enough pixels a module: the server refuses sizes its code cannot be read at). */
export function serverQrSrc(value: string, opts: { size: number; style?: QrStyle; margin?: number }): string {
  return endpointHref(getQrcode, { query: { data: value, size: Math.min(1024, opts.size * 2), style: opts.style ?? 'standard', margin: opts.margin ?? 4 } });
}
