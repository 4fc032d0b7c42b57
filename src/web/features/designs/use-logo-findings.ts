import { useEffect, useMemo, useState } from 'react';
import type { CardTypeId } from '#shared/catalogue';
import { checkLogoPixels, type LogoFinding } from '#shared/templates/logo-check';

/** The logo is read at most this many pixels a side: enough for its frame and colours, cheap to scan. */
const SAMPLE_SIDE = 96;

interface Pixels {
  href: string;
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** Reads a small copy of the logo's pixels in the browser (same-origin stored files, data: URIs). */
function readPixels(href: string): Promise<Pixels | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.decoding = 'async';
    img.onload = () => {
      try {
        const w0 = img.naturalWidth || SAMPLE_SIDE;
        const h0 = img.naturalHeight || SAMPLE_SIDE;
        const s = Math.min(1, SAMPLE_SIDE / Math.max(w0, h0));
        const width = Math.max(2, Math.round(w0 * s));
        const height = Math.max(2, Math.round(h0 * s));
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const g = canvas.getContext('2d', { willReadFrequently: true });
        if (!g) return resolve(null);
        g.drawImage(img, 0, 0, width, height);
        resolve({ href, data: g.getImageData(0, 0, width, height).data, width, height });
      } catch {
        resolve(null);
      }
    };
    img.onerror = () => resolve(null);
    img.src = href;
  });
}

/**
 * What the logo will do on this metal (decision 37-06): an opaque background, colours an engraving
 * cannot show, white that Color Metal does not print. Empty while the logo loads or when it cannot
 * be read (the warnings are advice; the staff's print check still runs).
 */
export function useLogoFindings(logoHref: string | null | undefined, cardType: CardTypeId): { findings: LogoFinding[]; checked: boolean } {
  const [pixels, setPixels] = useState<Pixels | null>(null);
  useEffect(() => {
    if (!logoHref || typeof document === 'undefined') return;
    let live = true;
    void readPixels(logoHref).then((p) => {
      if (live) setPixels(p ?? { href: logoHref, data: new Uint8ClampedArray(0), width: 0, height: 0 });
    });
    return () => {
      live = false;
    };
  }, [logoHref]);
  return useMemo(() => {
    if (!logoHref || !pixels || pixels.href !== logoHref) return { findings: [], checked: false };
    return { findings: pixels.width ? checkLogoPixels(pixels.data, pixels.width, pixels.height, cardType) : [], checked: true };
  }, [logoHref, pixels, cardType]);
}
