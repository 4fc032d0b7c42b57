import { useEffect, useState } from 'react';

/**
 * The average colour of an image's visible pixels (alpha > 50%) as #rrggbb, from a 32 px copy drawn
 * on a canvas: what a logo looks like from afar. A logo on a white box averages to near white (the
 * box is what a visitor sees against the header). Null while loading or when it cannot be read.
 */
export function useImageTone(url: string | null | undefined): string | null {
  const [tone, setTone] = useState<{ url: string; hex: string | null } | null>(null);
  useEffect(() => {
    if (!url) return;
    let live = true;
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => {
      if (live) setTone({ url, hex: averageTone(img) });
    };
    img.onerror = () => {
      if (live) setTone({ url, hex: null });
    };
    img.src = url;
    return () => {
      live = false;
    };
  }, [url]);
  return url && tone?.url === url ? tone.hex : null;
}

function averageTone(img: HTMLImageElement): string | null {
  try {
    const size = 32;
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const g = canvas.getContext('2d');
    if (!g) return null;
    g.drawImage(img, 0, 0, size, size);
    const { data } = g.getImageData(0, 0, size, size);
    let r = 0;
    let gr = 0;
    let b = 0;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! < 128) continue;
      r += data[i]!;
      gr += data[i + 1]!;
      b += data[i + 2]!;
      n++;
    }
    if (!n) return null;
    return `#${[r, gr, b].map((v) => Math.round(v / n).toString(16).padStart(2, '0')).join('')}`;
  } catch {
    return null; // a tainted canvas or no canvas support: no warning rather than a wrong one
  }
}
