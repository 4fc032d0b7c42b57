import crypto from 'node:crypto';
import type { AppContext } from '#server/context';
import { sharedSecret } from '#server/infra/secrets';

/**
 * Encryption at rest of the TOTP secrets (AES-256-GCM, a random 96-bit nonce each time). The key
 * comes from TWO_FACTOR_KEY, or from a secret generated once in the database when it is unset
 * (decision 39-01: setting it keeps the key out of the database and its backups).
 */
const keys = new WeakMap<AppContext, Promise<Buffer>>();

function keyOf(ctx: AppContext): Promise<Buffer> {
  let k = keys.get(ctx);
  if (!k) {
    k = (async () => {
      const material = ctx.config.TWO_FACTOR_KEY ?? (await sharedSecret(ctx.db, 'two-factor'));
      return Buffer.from(crypto.hkdfSync('sha256', material, 'metal-cards', 'totp-secret-v1', 32));
    })();
    keys.set(ctx, k);
  }
  return k;
}

export async function sealSecret(ctx: AppContext, plain: string): Promise<string> {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', await keyOf(ctx), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export async function openSecret(ctx: AppContext, sealed: string): Promise<string> {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown sealed secret format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', await keyOf(ctx), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** A keyed hash of a recovery code (the codes carry 50 random bits; the key keeps a leaked table useless). */
export async function recoveryCodeHash(ctx: AppContext, code: string): Promise<string> {
  return crypto.createHmac('sha256', await keyOf(ctx)).update(`recovery:${code}`).digest('hex');
}
