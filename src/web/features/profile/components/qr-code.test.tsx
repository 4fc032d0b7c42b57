import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { QrCode } from './qr-code';
import { decodeQrSvg } from '#tests/helpers/qr-decode';

describe('<QrCode>', () => {
  it('shows the titled placeholder box for empty text', () => {
    const html = renderToStaticMarkup(<QrCode text="" size={180} />);
    expect(html).toContain('title="QR Code"');
    expect(html).toContain('width:180px');
    expect(html).not.toContain('<img');
  });

  it('draws a decodable code at the given size (error correction H)', () => {
    const url = 'https://example.com/p/ab3kx9mqz2';
    const html = renderToStaticMarkup(<QrCode text={url} size={200} style="circular" />);
    const src = /src="data:image\/svg\+xml;charset=utf-8,([^"]+)"/.exec(html)![1];
    const svg = decodeURIComponent(src.replace(/&amp;/g, '&'));
    expect(svg).toContain('width="200"');
    expect(decodeQrSvg(svg)).toBe(url);
  });
});
