import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { getProfile } from '#shared/contracts/profile';
import type { Profile } from '#shared/schemas/profile';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';
import { mockApi, renderWithProviders } from '#web/test/render';
import ProfilePage from './profile';

/** Issue 37 (decision 37-09): on /profile, Save Profile is the primary action; Design Your Card below it is secondary. */
const USER = { id: 'u1', username: 'ada', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', role: 'user' as const, emailVerified: true, createdAt: '2026-11-01T10:00:00.000Z' };
const PROFILE: Profile = {
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
};

describe('/profile', () => {
  it('Save Profile is the one gold (primary) button; Design Your Card is secondary', async () => {
    const api = mockApi();
    api.ok(getProfile, PROFILE);
    renderWithProviders(<ProfilePage />, { route: '/profile', seed: [[AUTH_USER_KEY, USER]] });
    const save = await screen.findByRole('button', { name: 'Save Profile' });
    const design = screen.getByRole('button', { name: 'Design Your Card' });
    expect(save.className).toContain('bg-gold');
    expect(design.className).not.toContain('bg-gold');
    expect(design.className).toContain('bg-secondary');
    expect(document.querySelectorAll('.bg-gold')).toHaveLength(1);
  });
});
