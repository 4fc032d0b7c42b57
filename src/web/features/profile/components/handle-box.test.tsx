import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { putProfileHandle } from '#shared/contracts/profile';
import { HANDLE_MESSAGES } from '#shared/profile/handle';
import type { Profile } from '#shared/schemas/profile';
import { mockApi, renderWithProviders } from '#web/test/render';
import { HandleBox } from './handle-box';
import { testProfile } from '#web/test/profile-fixture';

const PROFILE = testProfile();

function setup(profile: Profile) {
  const api = mockApi();
  return { api, ...renderWithProviders(<HandleBox profile={profile} />, { route: '/profile?tab=share' }) };
}

describe('<HandleBox>', () => {
  it('says what is wrong with a handle before any request', async () => {
    const { api, user } = setup(PROFILE);
    await user.type(screen.getByLabelText('Your short address'), 'ab');
    await user.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText(HANDLE_MESSAGES.length)).toHaveAttribute('id', 'handle-error');
    await user.clear(screen.getByLabelText('Your short address'));
    await user.type(screen.getByLabelText('Your short address'), 'Adm1n');
    await user.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText(HANDLE_MESSAGES.reserved)).toBeInTheDocument();
    expect(screen.getByLabelText('Your short address')).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent(putProfileHandle)).toHaveLength(0);
  });

  it('sends the handle in lower case without its @, and shows the server\'s "taken" beside the field', async () => {
    const { api, user } = setup(PROFILE);
    api.fail(putProfileHandle, 409, { message: HANDLE_MESSAGES.taken, errors: { handle: HANDLE_MESSAGES.taken } });
    await user.type(screen.getByLabelText('Your short address'), '@Ada-L');
    await user.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText(HANDLE_MESSAGES.taken)).toHaveAttribute('id', 'handle-error');
    expect(api.sent(putProfileHandle)[0]!.body).toEqual({ handle: 'ada-l' });
  });

  it('a saved handle shows its short link; emptying the field offers Remove address (sends null)', async () => {
    const { api, user } = setup({ ...PROFILE, handle: 'ada' });
    api.ok(putProfileHandle, { ...PROFILE, handle: null });
    expect(screen.getByRole('link', { name: `${window.location.origin}/@ada` })).toHaveAttribute('href', '/@ada');
    expect(screen.getByRole('button', { name: 'Save address' })).toBeDisabled();
    await user.clear(screen.getByLabelText('Your short address'));
    await user.click(screen.getByRole('button', { name: 'Remove address' }));
    await waitFor(() => expect(api.sent(putProfileHandle)).toHaveLength(1));
    expect(api.sent(putProfileHandle)[0]!.body).toEqual({ handle: null });
  });
});
