import { useMemo } from 'react';
import { qrSvg, type QrStyle } from '#shared/qr/qr-svg';
import { cn } from '#web/lib/utils';

/** A real, scannable QR code drawn by the shared renderer, shown as an image (a data: URL). */
export function QrImage({
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
  const src = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg(value, { size, style, ecl: 'M', margin: 2 }))}`, [value, size, style]);
  return <img src={src} width={size} height={size} alt={alt} data-qr-value={value} className={cn('rounded-md bg-white', className)} decoding="async" />;
}
