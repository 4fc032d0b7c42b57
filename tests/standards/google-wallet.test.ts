import crypto from 'node:crypto';
import fc from 'fast-check';
import { decodeJwt, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import type { PublicProfile } from '#shared/schemas/profile';
import { GOOGLE_SAVE_URL_MAX, googleSaveUrl } from '#server/features/wallet/google-wallet';
import { GOOGLE_WALLET_SAVE_URL } from '#shared/schemas/wallet';

/**
 * Issue 36: the "Save to Google Wallet" link stays within Google's 1,800 characters at the longest
 * allowed fields (100 characters each for name, job title and company) in any script, and still
 * verifies (jose, RS256) with every value sent once.
 */
const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const keys = { issuerId: '3388000000022912345', clientEmail: 'wallet-issuer@metal-cards-prod.iam.gserviceaccount.com', privateKey };
const ORIGIN = 'https://www.metalcards-newyork.example.com';

function profile(fullName: string, jobTitle: string | null, companyName: string | null): PublicProfile {
  return { id: 'ab3kx9mqz2ab3kx9mqz2', fullName, jobTitle, companyName, brand: null, profileTemplate: 'classic' } as unknown as PublicProfile;
}

async function link(p: PublicProfile) {
  const profileUrl = `${ORIGIN}/p/${p.id}`;
  const url = await googleSaveUrl(keys, { profile: p, profileUrl, origin: ORIGIN, photoUrl: `${ORIGIN}/files/photos/0f6c1e2a-9b7d-4c3e-8f21-5a6b7c8d9e0f.jpg` });
  const jwt = url.slice(GOOGLE_WALLET_SAVE_URL.length);
  await jwtVerify(jwt, publicKey, { issuer: keys.clientEmail, audience: 'google', algorithms: ['RS256'] });
  const object = (decodeJwt(jwt).payload as { genericObjects: any[] }).genericObjects[0];
  return { url, object };
}

const at = (ch: string, n = 100) => Array.from({ length: n }, () => ch).join('');

describe('Google Wallet save link', () => {
  it('an ordinary profile: every value once, the whole link verifies and fits', async () => {
    const { url, object } = await link(profile('Grace Hopper', 'Rear Admiral', 'US Navy'));
    expect(url.length).toBeLessThanOrEqual(GOOGLE_SAVE_URL_MAX);
    const json = JSON.stringify(object);
    for (const v of ['Rear Admiral', 'US Navy', 'Grace Hopper']) expect(json.split(v).length - 1, `${v} sent more than once`).toBe(1);
    expect(object.header.defaultValue.value).toBe('Grace Hopper');
    expect(object.subheader.defaultValue.value).toBe('Rear Admiral');
    expect(object.cardTitle.defaultValue.value).toBe('US Navy');
  });

  it('100-character fields in Latin, Greek, CJK and emoji stay under 1,800 characters', async () => {
    for (const ch of ['W', 'Ω', '漢', '😀']) {
      const { url, object } = await link(profile(at(ch), at(ch), at(ch)));
      expect(url.length, `fields of ${ch}`).toBeLessThanOrEqual(GOOGLE_SAVE_URL_MAX);
      expect(object.header.defaultValue.value.startsWith(at(ch, 5))).toBe(true);
    }
    // a long name with short other fields stays whole
    const { object } = await link(profile(at('W'), 'CEO', 'Acme'));
    expect(object.header.defaultValue.value).toBe(at('W'));
  });

  it('generated fields up to the allowed lengths: always under 1,800 characters', async () => {
    const field = fc.string({ unit: 'grapheme', minLength: 2, maxLength: 100 }).filter((s) => s.trim().length >= 2);
    await fc.assert(
      fc.asyncProperty(field, fc.option(field), fc.option(field), async (n, j, c) => {
        expect((await link(profile(n, j, c))).url.length).toBeLessThanOrEqual(GOOGLE_SAVE_URL_MAX);
      }),
      { numRuns: 40 },
    );
  });
});
