import { useMemo } from 'react';
import { QR_DEFAULTS, qrSvg, type QrStyle } from '#shared/qr/qr-svg';
import { cn } from '#web/lib/utils';

/**
 * The profile QR code: black on white, error correction H, margin 2 (0 for circular), size 200.
 * Drawn in the browser by the same renderer as GET /api/qrcode. Empty text shows the titled
 * placeholder box.
 */
export function QrCode({
  text,
  size = QR_DEFAULTS.size,
  style = 'standard',
  fg = QR_DEFAULTS.fg,
  bg = QR_DEFAULTS.bg,
  className,
  label = 'QR code of your public profile',
}: {
  text: string;
  size?: number;
  style?: QrStyle;
  fg?: string;
  bg?: string;
  className?: string;
  label?: string;
}) {
  const src = useMemo(() => {
    if (!text) return null;
    try {
      return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg(text, { size, style, fg, bg, ecl: 'H' }))}`;
    } catch {
      return null;
    }
  }, [text, size, style, fg, bg]);

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
  return <img src={src} width={size} height={size} alt={label} data-qr-value={text} className={cn('rounded-md bg-white', className)} />;
}
