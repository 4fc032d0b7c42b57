import type { Profile } from '#shared/schemas/profile';

/** The signed-in user of the profile component tests (seeded under AUTH_USER_KEY). */
export const TEST_USER = { id: 'u1', username: 'ada', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', role: 'user' as const, emailVerified: true, createdAt: '2026-11-01T10:00:00.000Z' };

/** A saved profile as GET /api/profile answers it: empty but for the name, with `over` on top. */
export function testProfile(over: Partial<Profile> = {}): Profile {
  return {
    id: 'ab3kx9mq',
    handle: null,
    fullName: 'Ada Lovelace',
    jobTitle: null,
    email: null,
    phoneNumber: null,
    address: null,
    companyName: null,
    profileTemplate: 'classic',
    customPhotoUrl: null,
    logoUrl: null,
    bannerLogoUrl: null,
    links: [],
    templateId: 1,
    cardType: 'standard',
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-02T10:00:00.000Z',
    ...over,
  };
}
