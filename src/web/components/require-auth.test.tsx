import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, cleanup } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';

const state = vi.hoisted(() => ({ signingOut: false }));
vi.mock('#web/lib/session/use-auth', () => ({
  useAuth: () => ({ user: null, isLoading: false, isAuthenticated: false, isAdmin: false }),
  isSigningOut: () => state.signingOut,
}));
const { RequireAuth } = await import('./require-auth');

function app() {
  return render(
    <MemoryRouter initialEntries={['/profile']}>
      <Routes>
        <Route path="/profile" element={<RequireAuth>my profile</RequireAuth>} />
        <Route path="/login" element={<p>the sign-in page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('<RequireAuth>', () => {
  afterEach(() => {
    cleanup();
    state.signingOut = false;
  });

  it('sends a signed-out visitor to the sign-in page', () => {
    app();
    expect(screen.getByText('the sign-in page')).toBeTruthy();
  });

  it('waits (a spinner, no redirect) while a sign-out is on its way to the home page', () => {
    state.signingOut = true;
    app();
    expect(screen.queryByText('the sign-in page')).toBeNull();
    expect(screen.queryByText('my profile')).toBeNull();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
  });
});
