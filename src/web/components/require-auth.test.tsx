// <RequireAuth> with the real session hooks (no module mock: files share their worker, isolate is
// false, and a mocked `use-auth` once leaked into the next file, where a signed-in page then
// redirected forever; decision 45-01).
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { postAuthLogout } from '#shared/contracts/auth';
import { AUTH_USER_KEY, isSigningOut, useLogout, useSignOutLanded } from '#web/lib/session/use-auth';
import { mockApi, renderWithProviders } from '#web/test/render';
import { TEST_USER } from '#web/test/profile-fixture';
import { RequireAuth } from './require-auth';

function routes(extra?: React.ReactNode) {
  return (
    <>
      <Routes>
        <Route path="/profile" element={<RequireAuth>my profile</RequireAuth>} />
        <Route path="/login" element={<p>the sign-in page</p>} />
        <Route path="/" element={<p>the home page</p>} />
      </Routes>
      {extra}
    </>
  );
}

function SignOutButton() {
  const logout = useLogout();
  return (
    <button type="button" onClick={() => logout.mutate()}>
      Sign out
    </button>
  );
}

function HomeLanded() {
  useSignOutLanded('/');
  return null;
}

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('<RequireAuth>', () => {
  it('sends a signed-out visitor to the sign-in page', () => {
    renderWithProviders(routes(), { route: '/profile', seed: [[AUTH_USER_KEY, null]] });
    expect(screen.getByText('the sign-in page')).toBeTruthy();
  });

  it('shows the page to a signed-in user', () => {
    renderWithProviders(routes(), { route: '/profile', seed: [[AUTH_USER_KEY, TEST_USER]] });
    expect(screen.getByText('my profile')).toBeTruthy();
  });

  it('waits (a spinner, no redirect) while a sign-out is on its way to the home page, until the home page shows', async () => {
    // signed out on /profile (the browser's address is the page's)
    window.history.replaceState(null, '', '/profile');
    const api = mockApi();
    api.ok(postAuthLogout, { message: 'Logged out successfully' });
    const first = renderWithProviders(routes(<SignOutButton />), { route: '/profile', seed: [[AUTH_USER_KEY, TEST_USER]] });
    await first.user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.getByText('the home page')).toBeTruthy());
    expect(isSigningOut()).toBe(true);
    first.unmount();

    // the page signed out on, still on screen while the home page loads: no redirect to /login
    const second = renderWithProviders(routes(), { route: '/profile', seed: [[AUTH_USER_KEY, null]] });
    expect(screen.queryByText('the sign-in page')).toBeNull();
    expect(screen.queryByText('my profile')).toBeNull();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
    second.unmount();

    // the home page showed: the sign-out is over
    act(() => {
      renderWithProviders(<HomeLanded />);
    });
    expect(isSigningOut()).toBe(false);
  });
});
