import type { FastifyRequest } from 'fastify';
import type { AppContext } from '#server/context';
import { normalizeCardCode } from '#shared/schemas/engagement';
import type { VisitSource } from '#shared/schemas/engagement';
import { resolveCardCode } from './card-codes.service';

export interface VisitOrigin {
  source: VisitSource;
  cardCode: string | null;
}

function first(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}

/**
 * Where a view of /p/{id} came from:
 * - `card`: through a batch code (/c/{code} redirects with `?src=card&code=`); the code must
 *   belong to this profile and be on, so a hand-made link cannot credit a batch
 * - `link`: `?src=link` (the e-mail signature's links) or a referrer from another site
 * - `direct`: anything else (typed, the profile's own QR code, apps that send no referrer)
 */
export function visitOrigin(ctx: AppContext, req: Pick<FastifyRequest, 'query' | 'headers' | 'hostname'>, profileId: string): VisitOrigin | Promise<VisitOrigin> {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const src = first(q.src);
  if (src === 'card') {
    // the only answer that needs the database (a promise); every other one is at hand
    const code = normalizeCardCode(first(q.code) ?? '');
    return (async () => {
      const found = code ? await resolveCardCode(ctx, code) : null;
      if (found && found.active && found.profileId === profileId) return { source: 'card' as const, cardCode: found.code };
      return refererOrigin(req);
    })();
  }
  if (src === 'link') return { source: 'link', cardCode: null };
  return refererOrigin(req);
}

/** `link` for a referrer from another site, else `direct`. */
function refererOrigin(req: Pick<FastifyRequest, 'headers' | 'hostname'>): VisitOrigin {
  const referer = first(req.headers.referer);
  if (referer) {
    try {
      // our own pages (any port) are not a shared link
      if (new URL(referer).hostname.toLowerCase() !== req.hostname.toLowerCase()) return { source: 'link', cardCode: null };
    } catch {
      // an unreadable referrer counts as direct
    }
  }
  return { source: 'direct', cardCode: null };
}
