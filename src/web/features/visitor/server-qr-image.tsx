import type { QrStyle } from '#shared/qr/qr-svg';
import { cn } from '#web/lib/utils';

/**
 * A real, scannable QR code drawn by the server (GET /api/qrcode, cached a day by the browser).
 * Pages on the first-load path use it so the QR encoder stays out of their JavaScript.
 */
export function ServerQrImage({
  value,
  size = 160,
  alt,
  style = 'standard',
  className,
}: {
  value: string;
  size?: number;
  alt: string;
  style?: QrStyle;
  className?: string;
}) {
  const src = `/api/qrcode?${new URLSearchParams({ data: value, size: String(size), style, margin: '2' })}`;
  return <img src={src} width={size} height={size} alt={alt} data-qr-value={value} className={cn('rounded-md bg-white', className)} loading="lazy" decoding="async" />;
}
