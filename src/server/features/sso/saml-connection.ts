import { createHash, X509Certificate } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '#server/context';
import { badRequest } from '#server/http/http-errors';
import { getSamlConfig, saveSamlConfig } from './sso-connection.service';
import { fetchMetadata } from './saml-fetch';
import { parseIdpMetadata, spEndpoints } from './saml-metadata';

/**
 * A team's SAML connection (decision 39-04): what we keep of the identity provider (entity id,
 * single sign-on address, signing certificates, the metadata address when it came from one), in
 * sso-core's `sso_connections.saml` column, and the owner's view of it with our side's addresses.
 */

export const StoredSamlConfig = z.object({
  entityId: z.string().min(1),
  ssoUrl: z.string().min(1),
  certificates: z.array(z.string()).min(1),
  metadataUrl: z.string().nullable(),
  savedAt: z.string(),
});
export type StoredSamlConfig = z.infer<typeof StoredSamlConfig>;

/** The team's SAML settings, or null when none (or unreadable: a sign-in then fails closed). */
export async function samlConfigOf(ctx: AppContext, teamId: string): Promise<StoredSamlConfig | null> {
  const raw = await getSamlConfig(ctx, teamId);
  if (raw === null || raw === undefined) return null;
  const parsed = StoredSamlConfig.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

function certificateView(pem: string) {
  try {
    const c = new X509Certificate(pem);
    return { subject: c.subject.split('\n').join(', '), notAfter: new Date(c.validTo).toISOString(), sha256: createHash('sha256').update(c.raw).digest('hex').toUpperCase() };
  } catch {
    return { subject: '(unreadable)', notAfter: '', sha256: '' };
  }
}

export function connectionView(baseUrl: string, teamId: string, cfg: StoredSamlConfig | null) {
  const sp = spEndpoints(baseUrl, teamId);
  return {
    sp: { entityId: sp.entityId, acsUrl: sp.acsUrl, metadataUrl: sp.entityId },
    idp: cfg ? { entityId: cfg.entityId, ssoUrl: cfg.ssoUrl, metadataUrl: cfg.metadataUrl, certificates: cfg.certificates.map(certificateView), savedAt: cfg.savedAt } : null,
  };
}

/**
 * Reads the IdP metadata the owner gave (pasted, or downloaded through the outbound guard), and
 * saves what we keep of it. Anything wrong is a 400 naming the field; nothing is saved then.
 */
export async function saveSamlConnection(
  ctx: AppContext,
  teamId: string,
  body: { metadataXml?: string; metadataUrl?: string },
  who: { actorId: string; ip: string },
): Promise<StoredSamlConfig> {
  const url = body.metadataUrl?.trim() || null;
  let xml: string;
  let field: 'metadataXml' | 'metadataUrl' = 'metadataXml';
  if (url) {
    field = 'metadataUrl';
    const got = await fetchMetadata(ctx, url);
    if (!got.ok) throw badRequest(got.message, { metadataUrl: got.message });
    xml = got.text;
  } else {
    xml = (body.metadataXml ?? '').trim();
  }
  const parsed = parseIdpMetadata(xml);
  if (!parsed.ok) throw badRequest(parsed.message, { [field]: parsed.message });
  const cfg: StoredSamlConfig = { ...parsed.idp, metadataUrl: url, savedAt: new Date().toISOString() };
  await saveSamlConfig(ctx, teamId, cfg, who);
  return cfg;
}
