import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { getProfile } from '#shared/contracts/profile';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';
import { mockApi, renderWithProviders } from '#web/test/render';
import ProfilePage from './profile';
import { TEST_USER, testProfile } from '#web/test/profile-fixture';

/** Issue 37 (decision 37-09): on /profile, Save Profile is the primary action; Design Your Card below it is secondary. */
const USER = TEST_USER;
const PROFILE = testProfile();

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
