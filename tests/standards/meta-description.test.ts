import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PublicProfile } from '#shared/schemas/profile';
import { describeProfile } from '#server/features/profile/public-profile.page';

/** Issue 36: the public page's meta description ends each sentence once ("Müller & Söhne, Inc." gave "Inc.."). */
const p = (o: Partial<PublicProfile>) => ({ fullName: 'Zoë O’Brien', jobTitle: null, companyName: null, ...o }) as PublicProfile;

describe('meta description', () => {
  it('no double period after a company or title ending in one', () => {
    expect(describeProfile(p({ jobTitle: 'Owner', companyName: 'Müller & Söhne, Inc.' }))).toBe('Zoë O’Brien, Owner at Müller & Söhne, Inc. Save the contact in one tap.');
    expect(describeProfile(p({ jobTitle: 'Managing Dir.' }))).toBe('Zoë O’Brien, Managing Dir. Save the contact in one tap.');
    expect(describeProfile(p({ companyName: 'Yahoo!' }))).toBe('Zoë O’Brien, Yahoo! Save the contact in one tap.');
    expect(describeProfile(p({ companyName: 'Acme' }))).toBe('Zoë O’Brien, Acme. Save the contact in one tap.');
  });

  it('generated fields: never two sentence ends in a row that the input did not have', () => {
    const text = fc.option(fc.string({ maxLength: 30 }).map((s) => `${s}${'.'.repeat(s.length % 2)}`));
    fc.assert(
      fc.property(fc.string({ minLength: 2, maxLength: 30 }), text, text, (fullName, jobTitle, companyName) => {
        const d = describeProfile(p({ fullName, jobTitle, companyName }));
        if (![fullName, jobTitle ?? '', companyName ?? ''].some((v) => /[.!?…]\s*[.!?…]/.test(v))) expect(d).not.toMatch(/[.!?…]\./);
      }),
    );
  });
});
