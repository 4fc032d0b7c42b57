import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { Profile } from '#shared/schemas/profile';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';
import { mockApi, renderWithProviders } from '#web/test/render';
import { ProfileForm } from './profile-form';

/** A member whose company directory keeps fields in sync (SCIM, decision 39-02): those inputs are read-only. */
const USER = { id: 'u1', username: 'ada', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', role: 'user' as const, emailVerified: true, createdAt: '2026-11-01T10:00:00.000Z' };
const PROFILE: Profile = {
  id: 'ab3kx9mq',
  handle: null,
  fullName: 'Ada Lovelace',
  jobTitle: 'Analyst',
  email: 'ada@example.com',
  phoneNumber: null,
  address: null,
  companyName: null,
  profileTemplate: 'modern',
  customPhotoUrl: null,
  logoUrl: null,
  bannerLogoUrl: null,
  links: [],
  templateId: 1,
  cardType: 'standard',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};

describe('<ProfileForm synced>', () => {
  it('synced fields are read-only and point at the note; the others stay editable', async () => {
    mockApi();
    renderWithProviders(<ProfileForm profile={PROFILE} synced={['fullName', 'jobTitle']} />, { route: '/profile', seed: [[AUTH_USER_KEY, USER]] });
    const name = screen.getByLabelText('Full name');
    await waitFor(() => expect(name).toHaveValue('Ada Lovelace'));
    for (const el of [name, screen.getByLabelText('Job title')]) {
      expect(el).toHaveAttribute('readonly');
      expect(el).toHaveAttribute('aria-describedby', 'synced-fields-note');
    }
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('readonly');
    expect(screen.getByLabelText('Phone number')).not.toHaveAttribute('readonly');
  });
});
