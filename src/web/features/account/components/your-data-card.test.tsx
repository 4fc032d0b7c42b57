import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { deleteAccount } from '#shared/contracts/account';
import { currentLocation, mockApi, renderWithProviders } from '#web/test/render';
import { YourDataCard } from './your-data-card';

/** Issue 37 item 6 (decision 37-09): after deleting the account the browser lands on a neutral page that says so. */
describe('<YourDataCard> delete', () => {
  it('goes to /account-deleted, not to the sign-in page', async () => {
    const api = mockApi();
    api.ok(deleteAccount, { message: 'Your account has been deleted.' });
    const { user } = renderWithProviders(<YourDataCard />, { route: '/account' });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    await user.type(await screen.findByLabelText(/Enter your password to confirm/), 'my-secret-password');
    await user.click(screen.getByRole('button', { name: 'Delete account permanently' }));
    await expect.poll(() => currentLocation()).toBe('/account-deleted');
  });
});
