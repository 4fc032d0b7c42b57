import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { decodeJwt, jwtVerify } from 'jose';
import { loadConfig } from '#server/env';
import { GOOGLE_WALLET_SAVE_URL, WALLET_MESSAGES, WALLET_RATE_LIMIT, WalletGetResponse } from '#shared/schemas/wallet';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { uploadAs } from '#tests/helpers/multipart';
import { makeWalletCredentials, unzipToDir, verifyPassSignature, type WalletTestCredentials } from '#tests/helpers/wallet-certs';
import { loadWalletKeys } from './wallet.config';

const ORIGIN = 'https://cards.example.com';

const profileForm = (over: Record<string, unknown> = {}) => ({
  fullName: 'Grace Hopper',
  jobTitle: 'Rear Admiral',
  email: 'grace@example.com',
  phoneNumber: '+1 212 555 0100',
  companyName: 'US Navy',
  profileTemplate: 'modern',
  links: [{ linkType: 'website', url: 'https://grace.example.com' }],
  ...over,
});

let creds: WalletTestCredentials;
beforeAll(() => {
  creds = makeWalletCredentials();
});
afterAll(() => creds?.remove());

describe('wallet passes without settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('offers no wallet and answers 404 JSON', async () => {
    const anon = new Agent(t.app);
    expect((await anon.get('/api/wallet')).statusCode).toBe(401);
    expect((await anon.get('/api/wallet/apple.pkpass')).statusCode).toBe(401);
    const owner = await signedInAgent(t.app);
    expect((await owner.agent.post('/api/profile', profileForm())).statusCode).toBe(201);
    const status = await owner.agent.get('/api/wallet');
    expect(status.statusCode).toBe(200);
    expect(WalletGetResponse.parse(status.json())).toEqual({ apple: false, google: false });
    const pass = await owner.agent.get('/api/wallet/apple.pkpass');
    expect(pass.statusCode).toBe(404);
    expect(pass.headers['content-type']).toMatch(/application\/json/);
    expect(pass.json()).toEqual({ message: WALLET_MESSAGES.appleOff });
    const google = await owner.agent.get('/api/wallet/google');
    expect(google.statusCode).toBe(404);
    expect(google.json()).toEqual({ message: WALLET_MESSAGES.googleOff });
  });
});

describe('wallet passes with settings', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInAgent>>;
  let profileId: string;
  let photoUrl: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...creds.env, PUBLIC_URL: ORIGIN } });
    owner = await signedInAgent(t.app);
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#336699' } }).png().toBuffer();
    const up = await uploadAs(t.app, owner.agent, '/api/upload/profile-image', 'profileImage', png);
    expect(up.statusCode).toBe(201);
    photoUrl = up.json().url;
    const res = await owner.agent.post('/api/profile', profileForm({ customPhotoUrl: photoUrl }));
    expect(res.statusCode).toBe(201);
    profileId = res.json().id;
  });
  afterAll(async () => t.close());

  it('shows the buttons to an owner with a profile only', async () => {
    expect((await owner.agent.get('/api/wallet')).json()).toEqual({ apple: true, google: true });
    const newcomer = await signedInAgent(t.app);
    expect((await newcomer.agent.get('/api/wallet')).json()).toEqual({ apple: false, google: false });
    const pass = await newcomer.agent.get('/api/wallet/apple.pkpass');
    expect(pass.statusCode).toBe(404);
    expect(pass.json().message).toBe(WALLET_MESSAGES.noProfile);
    expect((await newcomer.agent.get('/api/wallet/google')).json().message).toBe(WALLET_MESSAGES.noProfile);
  });

  it('signs a .pkpass whose manifest hashes and signature hold (checked with OpenSSL)', async () => {
    const res = await owner.agent.get('/api/wallet/apple.pkpass');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Grace Hopper\.pkpass"/);
    const dir = path.join(creds.dir, 'pass-owner');
    const names = unzipToDir(res.rawPayload, dir);
    for (const required of ['pass.json', 'manifest.json', 'signature', 'icon.png', 'icon@2x.png', 'logo.png', 'thumbnail.png', 'thumbnail@2x.png']) expect(names).toContain(required);

    // every file but manifest.json and signature is listed with its SHA-1, and nothing else is
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(names.filter((n) => n !== 'manifest.json' && n !== 'signature'));
    for (const [name, sha1] of Object.entries(manifest)) {
      expect(crypto.createHash('sha1').update(fs.readFileSync(path.join(dir, name))).digest('hex'), name).toBe(sha1);
    }
    // the detached PKCS#7 signature over manifest.json chains to the (stand-in) WWDR certificate
    expect(verifyPassSignature(dir, creds.caPem)).toBeNull();
    // and it is bound to the manifest: one changed byte fails
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...manifest, 'pass.json': '0'.repeat(40) }));
    expect(verifyPassSignature(dir, creds.caPem)).toMatch(/verification failure|digest failure/i);

    // the thumbnail is the profile photo, square
    const thumb = await sharp(fs.readFileSync(path.join(dir, 'thumbnail@2x.png'))).metadata();
    expect([thumb.width, thumb.height]).toEqual([180, 180]);
    const icon = await sharp(fs.readFileSync(path.join(dir, 'icon.png'))).metadata();
    expect([icon.width, icon.height]).toEqual([29, 29]);

    const pass = JSON.parse(fs.readFileSync(path.join(dir, 'pass.json'), 'utf8'));
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: creds.passTypeId,
      teamIdentifier: creds.teamId,
      serialNumber: profileId,
      organizationName: 'Metal Cards NYC',
      logoText: 'US Navy',
      backgroundColor: 'rgb(109, 40, 217)',
    });
    expect(pass.generic.primaryFields).toEqual([{ key: 'name', label: 'Name', value: 'Grace Hopper' }]);
    expect(pass.generic.secondaryFields).toEqual([
      { key: 'title', label: 'Title', value: 'Rear Admiral' },
      { key: 'company', label: 'Company', value: 'US Navy' },
    ]);
    expect(pass.barcodes[0]).toMatchObject({ format: 'PKBarcodeFormatQR', message: `${ORIGIN}/p/${profileId}`, messageEncoding: 'iso-8859-1' });
    expect(pass.generic.backFields.map((f: { value: string }) => f.value)).toEqual(expect.arrayContaining([`${ORIGIN}/p/${profileId}`, 'grace@example.com', 'https://grace.example.com']));
  });

  it("gives each user their own profile's pass only", async () => {
    const bob = await signedInAgent(t.app);
    const made = await bob.agent.post('/api/profile', profileForm({ fullName: 'Bob Builder', customPhotoUrl: undefined }));
    expect(made.statusCode).toBe(201);
    const res = await bob.agent.get('/api/wallet/apple.pkpass');
    expect(res.statusCode).toBe(200);
    const dir = path.join(creds.dir, 'pass-bob');
    const names = unzipToDir(res.rawPayload, dir);
    // no photo: no thumbnail, and the pass is still complete and signed
    expect(names).not.toContain('thumbnail.png');
    expect(verifyPassSignature(dir, creds.caPem)).toBeNull();
    const pass = JSON.parse(fs.readFileSync(path.join(dir, 'pass.json'), 'utf8'));
    expect(pass.serialNumber).toBe(made.json().id);
    expect(pass.serialNumber).not.toBe(profileId);
    expect(pass.generic.primaryFields[0].value).toBe('Bob Builder');
    // the routes take no profile id: asking for someone else's still gives one's own
    const asked = await bob.agent.get(`/api/wallet/apple.pkpass?profileId=${profileId}&id=${profileId}`);
    const askedNames = unzipToDir(asked.rawPayload, path.join(creds.dir, 'pass-bob-asked'));
    expect(askedNames).toContain('pass.json');
    expect(JSON.parse(fs.readFileSync(path.join(creds.dir, 'pass-bob-asked', 'pass.json'), 'utf8')).serialNumber).toBe(made.json().id);
    const link = (await bob.agent.get('/api/wallet/google')).json().url as string;
    const claims = decodeJwt(link.slice(GOOGLE_WALLET_SAVE_URL.length)) as any;
    expect(claims.payload.genericObjects[0].header.defaultValue.value).toBe('Bob Builder');
  });

  it('makes a Save to Google Wallet link whose JWT verifies with the public key', async () => {
    const res = await owner.agent.get('/api/wallet/google');
    expect(res.statusCode).toBe(200);
    const url = res.json().url as string;
    expect(url.startsWith(GOOGLE_WALLET_SAVE_URL)).toBe(true);
    const jwt = url.slice(GOOGLE_WALLET_SAVE_URL.length);
    const { payload, protectedHeader } = await jwtVerify(jwt, crypto.createPublicKey(creds.googlePublicKeyPem), { issuer: creds.serviceAccountEmail, audience: 'google', algorithms: ['RS256'] });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.typ).toBe('savetowallet');
    expect(payload.origins).toEqual([ORIGIN]);
    const body = payload.payload as { genericClasses: Array<{ id: string }>; genericObjects: any[] };
    const classId = `${creds.issuerId}.digital_profile`;
    expect(body.genericClasses).toEqual([{ id: classId }]);
    expect(body.genericObjects).toHaveLength(1);
    const obj = body.genericObjects[0];
    expect(obj).toMatchObject({
      id: `${creds.issuerId}.profile_${profileId}`,
      classId,
      state: 'ACTIVE',
      hexBackgroundColor: '#6d28d9',
      barcode: { type: 'QR_CODE', value: `${ORIGIN}/p/${profileId}` },
    });
    expect(obj.header.defaultValue.value).toBe('Grace Hopper');
    expect(obj.subheader.defaultValue.value).toBe('Rear Admiral');
    expect(obj.cardTitle.defaultValue.value).toBe('US Navy');
    // each value once (issue 36): no text modules repeating the title and company
    expect(obj.textModulesData).toBeUndefined();
    // served over https: the photo goes in as a public URL Google can fetch
    expect(obj.logo.sourceUri.uri).toBe(`${ORIGIN}${photoUrl}`);
    // another key does not verify it
    const { publicKey: other } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    await expect(jwtVerify(jwt, other)).rejects.toThrow();
  });
});

describe('wallet pass limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: creds.env });
  });
  afterAll(async () => t.close());

  it('allows a user 20 passes a minute, then answers 429 with Retry-After', async () => {
    const u = await signedInAgent(t.app);
    expect((await u.agent.post('/api/profile', profileForm())).statusCode).toBe(201);
    for (let i = 0; i < WALLET_RATE_LIMIT.limit; i++) expect((await u.agent.get('/api/wallet/google')).statusCode).toBe(200);
    const over = await u.agent.get('/api/wallet/apple.pkpass');
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe(WALLET_MESSAGES.rateLimited);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // another user is not held back
    const other = await signedInAgent(t.app);
    expect((await other.agent.post('/api/profile', profileForm())).statusCode).toBe(201);
    expect((await other.agent.get('/api/wallet/google')).statusCode).toBe(200);
  });
});

describe('wallet settings at start-up', () => {
  const cfg = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });

  it('turns each wallet on only when all its settings are set', () => {
    expect(loadWalletKeys(cfg({}))).toEqual({ apple: null, google: null });
    const { GOOGLE_WALLET_ISSUER_ID: _i, GOOGLE_WALLET_SERVICE_ACCOUNT: _s, ...appleOnly } = creds.env;
    const keys = loadWalletKeys(cfg(appleOnly));
    expect(keys.apple?.passTypeId).toBe(creds.passTypeId);
    expect(keys.google).toBeNull();
  });

  it('takes PEM and JSON text as well as file paths', () => {
    const oneLine = (file: string) => fs.readFileSync(file, 'utf8').replace(/\n/g, '\\n');
    const keys = loadWalletKeys(
      cfg({
        ...creds.env,
        APPLE_WALLET_CERT: oneLine(creds.certPem),
        APPLE_WALLET_KEY: oneLine(creds.keyPem),
        APPLE_WALLET_WWDR_CERT: fs.readFileSync(creds.caPem, 'utf8'),
        GOOGLE_WALLET_SERVICE_ACCOUNT: fs.readFileSync(creds.serviceAccountJson, 'utf8'),
      }),
    );
    expect(keys.apple?.signerKey).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    expect(keys.google?.clientEmail).toBe(creds.serviceAccountEmail);
  });

  it('stops the start with a clear message when a wallet is set up wrongly', async () => {
    const fails = (env: Record<string, string>) => () => loadWalletKeys(cfg({ ...creds.env, ...env }));
    expect(fails({ APPLE_WALLET_TEAM_ID: '' })).toThrow('Apple Wallet is set up partly: APPLE_WALLET_TEAM_ID missing');
    expect(fails({ GOOGLE_WALLET_SERVICE_ACCOUNT: '' })).toThrow('Google Wallet is set up partly: GOOGLE_WALLET_SERVICE_ACCOUNT missing');
    expect(fails({ APPLE_WALLET_CERT: 'no/such/file.pem' })).toThrow('APPLE_WALLET_CERT is neither PEM text nor a readable file (ENOENT)');
    expect(fails({ APPLE_WALLET_KEY_PASSPHRASE: 'wrong' })).toThrow(/APPLE_WALLET_KEY cannot be read/);
    expect(fails({ APPLE_WALLET_CERT: creds.caPem })).toThrow('APPLE_WALLET_KEY is not the key of APPLE_WALLET_CERT');
    expect(fails({ APPLE_WALLET_WWDR_CERT: creds.certPem })).toThrow('APPLE_WALLET_CERT was not issued by APPLE_WALLET_WWDR_CERT');
    expect(fails({ GOOGLE_WALLET_SERVICE_ACCOUNT: '{"client_email":"x@y.z"}' })).toThrow('lacks client_email or private_key');
    expect(fails({ GOOGLE_WALLET_ISSUER_ID: 'my-issuer' })).toThrow(/GOOGLE_WALLET_ISSUER_ID must be the issuer id/);
    // the whole app refuses to start
    await expect(createTestApp({ env: { ...creds.env, APPLE_WALLET_KEY_PASSPHRASE: 'wrong' } })).rejects.toThrow(/Wallet settings: APPLE_WALLET_KEY cannot be read/);
  });
});
