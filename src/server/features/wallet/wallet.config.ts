import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '#server/env';
import { projectRoot } from '#server/infra/paths';

/**
 * The wallet settings (issue 23, decision 23-03), read and checked once at start-up. A wallet is on
 * only when every one of its settings is set; a wallet that is set up partly, or whose certificate,
 * key or service account key cannot be read, stops the start with a message naming the setting.
 *
 * Certificates and keys are a file path (relative paths from the project folder) or the PEM text
 * itself (`\n` escapes allowed, as one-line environment values carry them); the service account
 * key is the JSON file's path or its text.
 */

/** What the pass signer needs, as PEM text node-forge reads (the key decrypted, PKCS#1). */
export interface AppleWalletKeys {
  passTypeId: string;
  teamId: string;
  signerCert: string;
  signerKey: string;
  wwdr: string;
}

export interface GoogleWalletKeys {
  issuerId: string;
  clientEmail: string;
  privateKey: crypto.KeyObject;
}

export interface WalletKeys {
  apple: AppleWalletKeys | null;
  google: GoogleWalletKeys | null;
}

const APPLE_SETTINGS = ['APPLE_WALLET_PASS_TYPE_ID', 'APPLE_WALLET_TEAM_ID', 'APPLE_WALLET_CERT', 'APPLE_WALLET_KEY', 'APPLE_WALLET_WWDR_CERT'] as const;
const GOOGLE_SETTINGS = ['GOOGLE_WALLET_ISSUER_ID', 'GOOGLE_WALLET_SERVICE_ACCOUNT'] as const;

export class WalletConfigError extends Error {
  constructor(message: string) {
    super(`Wallet settings: ${message}`);
    this.name = 'WalletConfigError';
  }
}

/** PEM text as given, or the text of the file it names. */
function pemOrFile(setting: string, value: string): string {
  const inline = value.replace(/\\n/g, '\n');
  if (inline.trimStart().startsWith('-----BEGIN')) return inline;
  try {
    return fs.readFileSync(path.resolve(projectRoot(), value), 'utf8');
  } catch (e) {
    throw new WalletConfigError(`${setting} is neither PEM text nor a readable file (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

function certificate(setting: string, value: string): crypto.X509Certificate {
  try {
    return new crypto.X509Certificate(pemOrFile(setting, value));
  } catch (e) {
    if (e instanceof WalletConfigError) throw e;
    throw new WalletConfigError(`${setting} does not hold a PEM certificate`);
  }
}

function missingOf(config: AppConfig, names: readonly (keyof AppConfig)[]): string[] {
  return names.filter((n) => !config[n]) as string[];
}

function loadApple(config: AppConfig): AppleWalletKeys | null {
  const missing = missingOf(config, APPLE_SETTINGS);
  if (missing.length === APPLE_SETTINGS.length && !config.APPLE_WALLET_KEY_PASSPHRASE) return null;
  if (missing.length) throw new WalletConfigError(`Apple Wallet is set up partly: ${missing.join(', ')} missing`);
  const cert = certificate('APPLE_WALLET_CERT', config.APPLE_WALLET_CERT!);
  const wwdr = certificate('APPLE_WALLET_WWDR_CERT', config.APPLE_WALLET_WWDR_CERT!);
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey({ key: pemOrFile('APPLE_WALLET_KEY', config.APPLE_WALLET_KEY!), format: 'pem', passphrase: config.APPLE_WALLET_KEY_PASSPHRASE ?? '' });
  } catch (e) {
    if (e instanceof WalletConfigError) throw e;
    throw new WalletConfigError('APPLE_WALLET_KEY cannot be read (not a PEM private key, or APPLE_WALLET_KEY_PASSPHRASE is wrong or missing)');
  }
  // node-forge, which signs the pass, reads RSA only (Apple's pass certificates are RSA)
  if (key.asymmetricKeyType !== 'rsa') throw new WalletConfigError('APPLE_WALLET_KEY must be an RSA key');
  if (cert.publicKey.asymmetricKeyType !== 'rsa' || wwdr.publicKey.asymmetricKeyType !== 'rsa') {
    throw new WalletConfigError('APPLE_WALLET_CERT and APPLE_WALLET_WWDR_CERT must be RSA certificates (use the WWDR G4 intermediate)');
  }
  if (!cert.checkPrivateKey(key)) throw new WalletConfigError('APPLE_WALLET_KEY is not the key of APPLE_WALLET_CERT');
  if (!cert.verify(wwdr.publicKey)) throw new WalletConfigError('APPLE_WALLET_CERT was not issued by APPLE_WALLET_WWDR_CERT');
  if (Date.parse(cert.validTo) < Date.now()) throw new WalletConfigError(`APPLE_WALLET_CERT expired on ${cert.validTo}`);
  return {
    passTypeId: config.APPLE_WALLET_PASS_TYPE_ID!,
    teamId: config.APPLE_WALLET_TEAM_ID!,
    signerCert: cert.toString(),
    // decrypted once here: whatever cipher the export used, node-forge gets a key it reads
    signerKey: key.export({ type: 'pkcs1', format: 'pem' }).toString(),
    wwdr: wwdr.toString(),
  };
}

function loadGoogle(config: AppConfig): GoogleWalletKeys | null {
  const missing = missingOf(config, GOOGLE_SETTINGS);
  if (missing.length === GOOGLE_SETTINGS.length) return null;
  if (missing.length) throw new WalletConfigError(`Google Wallet is set up partly: ${missing.join(', ')} missing`);
  const issuerId = config.GOOGLE_WALLET_ISSUER_ID!;
  if (!/^\d{5,30}$/.test(issuerId)) throw new WalletConfigError('GOOGLE_WALLET_ISSUER_ID must be the issuer id (digits) from the Google Pay & Wallet Console');
  const raw = config.GOOGLE_WALLET_SERVICE_ACCOUNT!;
  let text = raw;
  if (!raw.trimStart().startsWith('{')) {
    try {
      text = fs.readFileSync(path.resolve(projectRoot(), raw), 'utf8');
    } catch (e) {
      throw new WalletConfigError(`GOOGLE_WALLET_SERVICE_ACCOUNT is neither JSON nor a readable file (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
  }
  let account: { client_email?: unknown; private_key?: unknown };
  try {
    account = JSON.parse(text) as typeof account;
  } catch {
    throw new WalletConfigError('GOOGLE_WALLET_SERVICE_ACCOUNT is not valid JSON (use the key file of the service account)');
  }
  if (typeof account.client_email !== 'string' || !account.client_email.includes('@') || typeof account.private_key !== 'string') {
    throw new WalletConfigError('GOOGLE_WALLET_SERVICE_ACCOUNT lacks client_email or private_key');
  }
  let privateKey: crypto.KeyObject;
  try {
    privateKey = crypto.createPrivateKey({ key: account.private_key, format: 'pem' });
  } catch {
    throw new WalletConfigError('GOOGLE_WALLET_SERVICE_ACCOUNT has a private_key that cannot be read');
  }
  if (privateKey.asymmetricKeyType !== 'rsa') throw new WalletConfigError('GOOGLE_WALLET_SERVICE_ACCOUNT must hold an RSA key (RS256)');
  return { issuerId, clientEmail: account.client_email, privateKey };
}

/** Both wallets' keys (null: not set up). Throws WalletConfigError when a wallet is set up wrongly. */
export function loadWalletKeys(config: AppConfig): WalletKeys {
  return { apple: loadApple(config), google: loadGoogle(config) };
}
