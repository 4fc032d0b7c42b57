import { runTask } from '#server/infra/worker-pool';

/**
 * Reads the QR code in an image the way a phone would (`decodeQrTask`, on the worker pool).
 * Null when no code.
 */
export function decodeQrFromImage(bytes: Buffer): Promise<string | null> {
  return runTask<string | null>('upload', 'decodeQr', { bytes });
}

/** True when `decoded` opens `expected`: same origin and path (a trailing slash, query or hash do not matter). */
export function sameTarget(decoded: string, expected: string): boolean {
  try {
    const a = new URL(decoded);
    const b = new URL(expected);
    const path = (u: URL) => u.pathname.replace(/\/+$/, '') || '/';
    return a.protocol === b.protocol && a.host.toLowerCase() === b.host.toLowerCase() && path(a) === path(b);
  } catch {
    return false;
  }
}
