import crypto from 'node:crypto';
import type { AppContext } from '#server/context';
import { sharedSecret } from '#server/infra/secrets';

/**
 * The OIDC client secret at rest (decision 39-03): AES-256-GCM, a random nonce each time, under a
 * key derived (HKDF) from TWO_FACTOR_KEY (the project's key for secrets at rest, decision 39-01)
 * or, when that is unset, from a secret generated once in the database. Its own HKDF label, so
 * the TOTP secrets and the client secrets never share a key.
 */
const keys = new WeakMap<AppContext, Promise<Buffer>>();

function keyOf(ctx: AppContext): Promise<Buffer> {
  let k = keys.get(ctx);
  if (!k) {
    k = (async () => {
      const material = ctx.config.TWO_FACTOR_KEY ?? (await sharedSecret(ctx.db, 'sso'));
      return Buffer.from(crypto.hkdfSync('sha256', material, 'metal-cards', 'sso-client-secret-v1', 32));
    })();
    keys.set(ctx, k);
  }
  return k;
}

export async function sealClientSecret(ctx: AppContext, plain: string): Promise<string> {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', await keyOf(ctx), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export async function openClientSecret(ctx: AppContext, sealed: string): Promise<string> {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown sealed secret format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', await keyOf(ctx), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
