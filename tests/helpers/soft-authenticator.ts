import crypto from 'node:crypto';

/**
 * A software WebAuthn authenticator for API tests (issue 39): ES256 keys, `none` attestation,
 * discoverable credentials. It builds what a browser sends (clientDataJSON, attestation object,
 * authenticator data, signature) so the server's @simplewebauthn verification runs for real.
 */

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
  throw new Error('too long for this encoder');
}

/** Minimal CBOR: integers, byte strings, text strings, maps. */
export function cbor(v: unknown): Buffer {
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (Buffer.isBuffer(v)) return Buffer.concat([head(2, v.length), v]);
  if (typeof v === 'string') {
    const b = Buffer.from(v, 'utf8');
    return Buffer.concat([head(3, b.length), b]);
  }
  if (v instanceof Map) return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [cbor(k), cbor(x)])]);
  throw new Error('unsupported CBOR value');
}

const b64 = (b: Buffer) => b.toString('base64url');
const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest();

export interface SoftCredential {
  id: Buffer;
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
}

export class SoftAuthenticator {
  credentials: SoftCredential[] = [];
  constructor(
    readonly origin: string,
    /** flags on every answer: user present + verified */
    readonly flags = 0x05,
  ) {}

  /** navigator.credentials.create: the registration response JSON for the options the server gave. */
  create(options: any): any {
    const rpId: string = options.rp?.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    const id = crypto.randomBytes(16);
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]),
    );
    const len = Buffer.alloc(2);
    len.writeUInt16BE(id.length);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags | 0x40]), Buffer.alloc(4), Buffer.alloc(16), len, id, cose]);
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: this.origin, crossOrigin: false }));
    const attestation = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({ id, privateKey, publicKey, userHandle: options.user.id, rpId, counter: 0 });
    return {
      id: b64(id),
      rawId: b64(id),
      type: 'public-key',
      response: { clientDataJSON: b64(clientData), attestationObject: b64(attestation), transports: ['internal'] },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get: an assertion by one of its credentials (the first by default). */
  get(options: any, which = 0, overrides: { origin?: string; type?: string } = {}): any {
    const c = this.credentials[which];
    c.counter += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(c.counter);
    const authData = Buffer.concat([sha256(options.rpId ?? c.rpId), Buffer.from([this.flags]), count]);
    const clientData = Buffer.from(
      JSON.stringify({ type: overrides.type ?? 'webauthn.get', challenge: options.challenge, origin: overrides.origin ?? this.origin, crossOrigin: false }),
    );
    const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientData)]), c.privateKey);
    return {
      id: b64(c.id),
      rawId: b64(c.id),
      type: 'public-key',
      response: { clientDataJSON: b64(clientData), authenticatorData: b64(authData), signature: b64(signature), userHandle: c.userHandle },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}
