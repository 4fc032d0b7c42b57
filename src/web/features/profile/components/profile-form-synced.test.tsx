import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';
import { mockApi, renderWithProviders } from '#web/test/render';
import { ProfileForm } from './profile-form';
import { TEST_USER, testProfile } from '#web/test/profile-fixture';

/** A member whose company directory keeps fields in sync (SCIM, decision 39-02): those inputs are read-only. */
const USER = TEST_USER;
const PROFILE = testProfile({ jobTitle: 'Analyst', email: 'ada@example.com', profileTemplate: 'modern' });

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
