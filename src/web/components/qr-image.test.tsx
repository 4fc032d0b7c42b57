import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { QrStyle } from '#shared/qr/qr-svg';
import { useQrDataUrl } from '#web/lib/qr-data-url';
import { QrImage, serverQrSrc } from './qr-image';
import { decodeQrSvg } from '#tests/helpers/qr-decode';

function BrowserQr({ text, size, style }: { text: string; size: number; style?: QrStyle }) {
  return <QrImage value={text} src={useQrDataUrl(text, { size, style, ecl: 'H' })} size={size} alt="QR code of your public profile" />;
}

describe('<QrImage>', () => {
  it('shows the titled placeholder box when there is nothing to draw', () => {
    const html = renderToStaticMarkup(<BrowserQr text="" size={180} />);
    expect(html).toContain('title="QR Code"');
    expect(html).toContain('width:180px');
    expect(html).not.toContain('<img');
  });

  it('drawn in the browser: a decodable code at the given size (error correction H)', () => {
    const url = 'https://example.com/p/ab3kx9mqz2';
    const html = renderToStaticMarkup(<BrowserQr text={url} size={200} style="circular" />);
    expect(html).toContain(`data-qr-value="${url}"`);
    expect(html).toContain('alt="QR code of your public profile"');
    const src = /src="data:image\/svg\+xml;charset=utf-8,([^"]+)"/.exec(html)![1]!;
    const svg = decodeURIComponent(src.replace(/&amp;/g, '&'));
    expect(svg).toContain('width="200"');
    expect(decodeQrSvg(svg)).toBe(url);
  });

  it('drawn by the server: the image address asks GET /api/qrcode for the same code', () => {
    const url = 'https://example.com/login';
    const html = renderToStaticMarkup(<QrImage value={url} src={serverQrSrc(url, { size: 96, style: 'rounded' })} size={96} alt="QR" lazy />);
    const src = /src="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    const q = new URL(src, 'http://localhost').searchParams;
    expect(new URL(src, 'http://localhost').pathname).toBe('/api/qrcode');
    expect(Object.fromEntries(q)).toEqual({ data: url, size: '192', style: 'rounded', margin: '4' });
    expect(html).toContain('loading="lazy"');
  });
});
