/** Pieces shared by the built-in designs (1050 x 600, black metal, white text). */

export const W = 1050;
export const H = 600;

export function svgOpen(title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${title}">`;
}

/** Black metal background with a soft diagonal sheen (a grain pattern was dropped: it tripled render time). */
export function metalBackground(): string {
  return (
    `<defs>` +
    `<linearGradient id="mc-sheen" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#1b1b1b"/><stop offset="0.45" stop-color="#0a0a0a"/><stop offset="0.7" stop-color="#121212"/><stop offset="1" stop-color="#070707"/>` +
    `</linearGradient>` +
    `</defs>` +
    `<rect width="${W}" height="${H}" fill="#000000"/>` +
    `<rect width="${W}" height="${H}" fill="url(#mc-sheen)"/>`
  );
}

/** What the QR slot shows when there is no profile URL yet (the code is added after review). */
export function qrPlaceholder(x: number, y: number, size: number, font: string): string {
  const c = size / 2;
  return (
    `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="6" fill="none" stroke="#6b6b6b" stroke-width="2" stroke-dasharray="8 6"/>` +
    `<text x="${x + c}" y="${y + c + 9}" text-anchor="middle" font-family="${font}" font-weight="500" font-size="26" letter-spacing="4" fill="#6b6b6b">QR</text>`
  );
}
