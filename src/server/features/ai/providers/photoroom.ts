import type { AppConfig } from '#server/env';

/**
 * PhotoRoom's background removal API (v1 "segment"): POST multipart `image_file` with the
 * `x-api-key` header; the answer is the cut-out image (PNG with transparency). Used only when
 * PHOTOROOM_API_KEY is set; PHOTOROOM_API_URL points it elsewhere (a proxy, or a local stand-in
 * in tests).
 */

export const PHOTOROOM_DEFAULT_URL = 'https://sdk.photoroom.com/v1/segment';

export class PhotoroomError extends Error {
  constructor(
    message: string,
    public readonly status?: number,
  ) {
    super(message);
  }
}

export interface PhotoroomClient {
  readonly url: string;
  removeBackground(image: Buffer, mimeType: string): Promise<Buffer>;
}

export function createPhotoroomClient(config: Pick<AppConfig, 'PHOTOROOM_API_KEY' | 'PHOTOROOM_API_URL' | 'AI_TIMEOUT_MS'>): PhotoroomClient | null {
  const key = config.PHOTOROOM_API_KEY;
  if (!key) return null;
  const url = config.PHOTOROOM_API_URL ?? PHOTOROOM_DEFAULT_URL;
  // image processing takes longer than a chat reply: at least 15 s
  const timeout = Math.max(config.AI_TIMEOUT_MS, 15_000);
  return {
    url,
    async removeBackground(image, mimeType) {
      const form = new FormData();
      const ext = mimeType === 'image/png' ? 'png' : 'jpg';
      form.append('image_file', new Blob([new Uint8Array(image)], { type: mimeType }), `image.${ext}`);
      form.append('format', 'png');
      form.append('channels', 'rgba');
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'x-api-key': key, accept: 'image/png, application/json' },
          body: form,
          signal: AbortSignal.timeout(timeout),
        });
      } catch (e) {
        throw new PhotoroomError(`PhotoRoom unreachable: ${(e as Error)?.name === 'TimeoutError' ? `timed out after ${timeout} ms` : (e as Error)?.message}`);
      }
      if (!res.ok) {
        let detail = '';
        try {
          const body = (await res.json()) as { detail?: string; message?: string };
          detail = body.detail ?? body.message ?? '';
        } catch {}
        throw new PhotoroomError(`PhotoRoom answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`, res.status);
      }
      const len = Number(res.headers.get('content-length') ?? 0);
      if (len > 50 * 1024 * 1024) throw new PhotoroomError('PhotoRoom answer too large');
      const buf = Buffer.from(await res.arrayBuffer());
      if (buf.length === 0) throw new PhotoroomError('PhotoRoom returned an empty image');
      return buf;
    },
  };
}
