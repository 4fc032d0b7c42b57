import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Throwaway wallet credentials made with the openssl CLI (issue 23): a CA standing in for Apple's
 * WWDR intermediate, a pass type certificate it signs (its key encrypted with a passphrase, as an
 * operator exports it), and an RSA key standing in for a Google service account. Everything lives
 * in a temp dir that `remove()` deletes.
 */
export interface WalletTestCredentials {
  dir: string;
  passTypeId: string;
  teamId: string;
  issuerId: string;
  serviceAccountEmail: string;
  /** files (the settings take paths or PEM/JSON text) */
  caPem: string;
  certPem: string;
  keyPem: string;
  keyPassphrase: string;
  serviceAccountJson: string;
  googlePublicKeyPem: string;
  /** the settings that switch both wallets on (paths) */
  env: Record<string, string>;
  remove(): void;
}

function openssl(dir: string, args: string[]) {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

export function makeWalletCredentials(): WalletTestCredentials {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-wallet-'));
  const passTypeId = 'pass.test.metalcards.profile';
  const teamId = 'TEAM123456';
  const issuerId = '3388000000012345678';
  const serviceAccountEmail = 'wallet-test@metal-cards-test.iam.gserviceaccount.com';
  const keyPassphrase = 'test passphrase';
  // the stand-in WWDR: a self-signed CA
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Test WWDR Stand-in/O=Test', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  // the pass type certificate: an encrypted PKCS#8 key, a request, signed by the CA
  openssl(dir, ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-aes-256-cbc', '-pass', `pass:${keyPassphrase}`, '-out', 'pass.key']);
  openssl(dir, ['req', '-new', '-key', 'pass.key', '-passin', `pass:${keyPassphrase}`, '-subj', `/UID=${passTypeId}/CN=Pass Type ID: ${passTypeId}/OU=${teamId}/O=Test`, '-out', 'pass.csr']);
  openssl(dir, ['x509', '-req', '-in', 'pass.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', '2', '-days', '2', '-out', 'pass.pem']);
  // the Google service account's key, and its public half for verifying
  openssl(dir, ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'google.key']);
  openssl(dir, ['pkey', '-in', 'google.key', '-pubout', '-out', 'google.pub']);
  const serviceAccountJson = path.join(dir, 'service-account.json');
  fs.writeFileSync(
    serviceAccountJson,
    JSON.stringify({
      type: 'service_account',
      project_id: 'metal-cards-test',
      private_key_id: 'test',
      private_key: fs.readFileSync(path.join(dir, 'google.key'), 'utf8'),
      client_email: serviceAccountEmail,
      client_id: '1',
    }),
  );
  const p = (f: string) => path.join(dir, f);
  return {
    dir,
    passTypeId,
    teamId,
    issuerId,
    serviceAccountEmail,
    caPem: p('ca.pem'),
    certPem: p('pass.pem'),
    keyPem: p('pass.key'),
    keyPassphrase,
    serviceAccountJson,
    googlePublicKeyPem: fs.readFileSync(p('google.pub'), 'utf8'),
    env: {
      APPLE_WALLET_PASS_TYPE_ID: passTypeId,
      APPLE_WALLET_TEAM_ID: teamId,
      APPLE_WALLET_CERT: p('pass.pem'),
      APPLE_WALLET_KEY: p('pass.key'),
      APPLE_WALLET_KEY_PASSPHRASE: keyPassphrase,
      APPLE_WALLET_WWDR_CERT: p('ca.pem'),
      GOOGLE_WALLET_ISSUER_ID: issuerId,
      GOOGLE_WALLET_SERVICE_ACCOUNT: serviceAccountJson,
    },
    remove() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Files of a ZIP archive (the .pkpass) by name, read with the unzip CLI. */
export function unzipToDir(zip: Buffer, into: string): string[] {
  fs.mkdirSync(into, { recursive: true });
  const file = path.join(into, '..', `${path.basename(into)}.zip`);
  fs.writeFileSync(file, zip);
  execFileSync('unzip', ['-q', '-o', file, '-d', into]);
  return fs.readdirSync(into, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(into, path.join(e.parentPath, e.name)))
    .sort();
}

/** `openssl cms -verify` of the detached signature over manifest.json: null when it holds, else openssl's message. */
export function verifyPassSignature(passDir: string, caPem: string): string | null {
  try {
    execFileSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', 'manifest.json', '-CAfile', caPem, '-purpose', 'any', '-out', os.devNull], {
      cwd: passDir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return null;
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? e);
  }
}
