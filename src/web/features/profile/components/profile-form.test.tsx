import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { postProfile, putProfileById } from '#shared/contracts/profile';
import { MESSAGES, type Profile } from '#shared/schemas/profile';
import type { FieldLocks } from '#web/components/locked-input';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';
import { mockApi, renderWithProviders } from '#web/test/render';
import { ProfileForm } from './profile-form';

const USER = {
  id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  role: 'user' as const,
  emailVerified: true,
  createdAt: '2026-11-01T10:00:00.000Z',
};

const PROFILE: Profile = {
  id: 'ab3kx9mq',
  handle: null,
  fullName: 'Ada Lovelace',
  jobTitle: 'Analyst',
  email: 'ada@example.com',
  phoneNumber: null,
  address: null,
  companyName: 'Engines Ltd',
  profileTemplate: 'modern',
  customPhotoUrl: '/files/photos/2026/a.webp',
  logoUrl: null,
  bannerLogoUrl: null,
  links: [
    { id: 7, linkType: 'website', url: 'https://ada.example.com', label: null },
    { id: 8, linkType: 'github', url: 'https://github.com/ada', label: null },
  ],
  templateId: 1,
  cardType: 'standard',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};

function setup(profile: Profile | null, locks?: FieldLocks) {
  const api = mockApi();
  const onSaved = vi.fn();
  // the signed-in user is known from the start (the page asked it): a late answer would reset the form
  const view = renderWithProviders(<ProfileForm profile={profile} onSaved={onSaved} locks={locks} />, { route: '/profile', seed: [[AUTH_USER_KEY, USER]] });
  return { api, onSaved, ...view };
}

describe('<ProfileForm>', () => {
  it("a new profile starts from the account's name and e-mail; its button says Create Profile", async () => {
    setup(null);
    await waitFor(() => expect(screen.getByLabelText('Full name')).toHaveValue('Ada Lovelace'));
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByRole('button', { name: 'Create Profile' })).toBeEnabled();
    expect(screen.getByText('No links yet. Add your website or social profiles.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Link (3 remaining)' })).toBeInTheDocument();
  });

  it("field messages (the spec's texts) show before any save request", async () => {
    const { api, user } = setup(PROFILE);
    const name = screen.getByLabelText('Full name');
    await user.clear(name);
    await user.type(name, 'A');
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Phone number'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText(MESSAGES.fullName)).toHaveAttribute('id', 'fullName-error');
    expect(screen.getByText('Please enter a valid email address')).toHaveAttribute('id', 'email-error');
    expect(screen.getByText('Please enter a valid phone number')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent(putProfileById)).toHaveLength(0);
    expect(api.sent(postProfile)).toHaveLength(0);
  });

  it('a link that is no URL is refused beside it; a bare domain gets https:// on blur', async () => {
    const { api, user } = setup(null);
    await user.click(screen.getByRole('button', { name: 'Add Link (3 remaining)' }));
    const url = screen.getByLabelText('Link 1 URL');
    await user.type(url, 'example.com');
    await user.tab();
    expect(url).toHaveValue('https://example.com');
    await user.click(screen.getByRole('button', { name: 'Add Link (2 remaining)' }));
    await user.type(screen.getByLabelText('Link 2 URL'), 'ftp://files.example.com');
    await user.click(screen.getByRole('button', { name: 'Create Profile' }));
    const rows = screen.getAllByTestId('link-row');
    expect(await within(rows[1]!).findByText(MESSAGES.linkUrl)).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('alert')).not.toBeInTheDocument();
    expect(api.sent(postProfile)).toHaveLength(0);
  });

  it('at most three links: the add button gives way to the limit note', async () => {
    const { user } = setup(PROFILE);
    await user.click(screen.getByRole('button', { name: 'Add Link (1 remaining)' }));
    expect(screen.queryByRole('button', { name: /Add Link/ })).not.toBeInTheDocument();
    expect(screen.getByText('You have added the maximum of 3 links.')).toBeInTheDocument();
  });

  it('Save sends PUT to the profile with its links, the removed link in deleteLinks and the images kept', async () => {
    const { api, onSaved, user } = setup(PROFILE);
    api.ok(putProfileById, (req) => ({ ...PROFILE, ...(req.body as object), links: [PROFILE.links[1]!] }) as Profile);
    await user.clear(screen.getByLabelText('Job title'));
    await user.type(screen.getByLabelText('Job title'), 'Chief Analyst');
    await user.click(screen.getByRole('radio', { name: /Corporate/ }));
    await user.click(screen.getByRole('button', { name: 'Remove link 1' }));
    await user.click(screen.getByRole('button', { name: 'Save Profile' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    const [req] = api.sent(putProfileById);
    expect(req).toMatchObject({ method: 'PUT', url: '/api/profile/ab3kx9mq' });
    expect(req!.body).toEqual({
      fullName: 'Ada Lovelace',
      jobTitle: 'Chief Analyst',
      email: 'ada@example.com',
      phoneNumber: '',
      address: '',
      companyName: 'Engines Ltd',
      profileTemplate: 'corporate',
      links: [{ id: 8, linkType: 'github', url: 'https://github.com/ada', label: null }],
      deleteLinks: [7],
      customPhotoUrl: '/files/photos/2026/a.webp',
      logoUrl: null,
      bannerLogoUrl: null,
    });
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
  });

  it('without a profile, Create sends POST /api/profile', async () => {
    const { api, user } = setup(null);
    api.ok(postProfile, { ...PROFILE, links: [] }, 201);
    await waitFor(() => expect(screen.getByLabelText('Full name')).toHaveValue('Ada Lovelace'));
    await user.click(screen.getByRole('button', { name: 'Create Profile' }));
    await waitFor(() => expect(api.sent(postProfile)).toHaveLength(1));
    expect(api.sent(postProfile)[0]!.body).toMatchObject({ fullName: 'Ada Lovelace', email: 'ada@example.com', profileTemplate: 'classic', links: [], deleteLinks: [] });
  });

  it("the server's field errors show beside the fields and the link, with a destructive toast", async () => {
    const { api, user } = setup(PROFILE);
    api.fail(putProfileById, 400, { message: 'Validation failed', errors: { email: 'That address is taken', 'links.1.url': 'This host is not allowed' } });
    await user.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('That address is taken')).toHaveAttribute('id', 'email-error');
    const rows = screen.getAllByTestId('link-row');
    expect(within(rows[1]!).getByText('This host is not allowed')).toBeInTheDocument();
    expect(await screen.findByText('Error updating profile')).toBeInTheDocument();
    expect(screen.getByText('Validation failed')).toBeInTheDocument();
  });

  it('while saving the button is disabled and says Saving...', async () => {
    const { api, user } = setup(PROFILE);
    const held = api.hold(putProfileById);
    await user.click(screen.getByRole('button', { name: 'Save Profile' }));
    await held.seen;
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    held.release({ status: 200, body: PROFILE });
    expect(await screen.findByRole('button', { name: 'Save Profile' })).toBeEnabled();
  });

  it("a team's locked fields show the team's value read-only", () => {
    const locks: FieldLocks = (f) => (f === 'companyName' ? { value: 'Team Co' } : null);
    setup(PROFILE, locks);
    const company = screen.getByDisplayValue('Team Co');
    expect(company).toHaveAttribute('readonly');
    expect(screen.queryByDisplayValue('Engines Ltd')).not.toBeInTheDocument();
  });
});
