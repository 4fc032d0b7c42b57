import { useMemo } from 'react';
import { qrSvg, type QrSvgOptions } from '#shared/qr/qr-svg';

/**
 * `value` drawn as a QR code in the browser, as an SVG data: URL for `<QrImage src>`; null when
 * there is nothing to draw (empty text, or more than a QR code holds).
 */
export function qrDataUrl(value: string, opts: QrSvgOptions): string | null {
  if (!value) return null;
  try {
    return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg(value, opts))}`;
  } catch {
    return null;
  }
}

/** qrDataUrl(), drawn again only when the text or an option changes. */
export function useQrDataUrl(value: string, { size, style, margin, ecl, fg, bg }: QrSvgOptions): string | null {
  return useMemo(() => qrDataUrl(value, { size, style, margin, ecl, fg, bg }), [value, size, style, margin, ecl, fg, bg]);
}
