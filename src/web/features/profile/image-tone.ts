import { createContext, useContext, useEffect, useState } from 'react';

/**
 * The average colour of an image's visible pixels (alpha > 50%) as #rrggbb, from a 32 px copy drawn
 * on a canvas: what a logo looks like from afar. A logo on a white box averages to near white (the
 * box is what a visitor sees against the header). Null when it cannot be read.
 */
export function readImageTone(url: string): Promise<string | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => resolve(averageTone(img));
    img.onerror = () => resolve(null);
    img.src = url;
  });
}

/** How tones are read: the canvas in the browser; component tests (jsdom has no canvas) provide their own. */
const ToneReader = createContext<(url: string) => Promise<string | null>>(readImageTone);
export const ImageToneReaderProvider = ToneReader.Provider;

/** The tone of the image at `url` (see {@link readImageTone}); null while loading, for none, or when unreadable. */
export function useImageTone(url: string | null | undefined): string | null {
  const read = useContext(ToneReader);
  const [tone, setTone] = useState<{ url: string; hex: string | null } | null>(null);
  useEffect(() => {
    if (!url) return;
    let live = true;
    void read(url).then((hex) => {
      if (live) setTone({ url, hex });
    });
    return () => {
      live = false;
    };
  }, [url, read]);
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
