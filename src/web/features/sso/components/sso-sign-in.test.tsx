import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { postAuthSsoDiscover } from '#shared/contracts/sso';
import { SSO_ERRORS } from '#shared/sso-errors';
import { mockApi, renderWithProviders } from '#web/test/render';
import { SsoSignIn } from './sso-sign-in';

function Harness() {
  const [email, setEmail] = useState('');
  return (
    <>
      <label htmlFor="e">Email</label>
      <input id="e" value={email} onChange={(e) => setEmail(e.target.value)} />
      <SsoSignIn email={email} />
    </>
  );
}

describe('<SsoSignIn>', () => {
  it('offers "Continue with SSO" once the typed address has single sign-on, linking to the start with that address', async () => {
    const api = mockApi();
    api.ok(postAuthSsoDiscover, { sso: true });
    const { user } = renderWithProviders(<Harness />, { route: '/login' });
    expect(screen.queryByTestId('sso-continue')).toBeNull();
    await user.type(screen.getByLabelText('Email'), 'ada@acme.test');
    const link = await screen.findByTestId('sso-continue', {}, { timeout: 3000 });
    expect(link).toHaveTextContent('Continue with SSO');
    expect(link.getAttribute('href')).toBe('/api/auth/sso/start?email=ada%40acme.test');
    // asked once the typing stopped, not per key
    await waitFor(() => expect(api.sent(postAuthSsoDiscover).length).toBeGreaterThan(0));
    expect(api.sent(postAuthSsoDiscover).length).toBeLessThan(4);
    expect(api.sent(postAuthSsoDiscover).at(-1)!.body).toEqual({ email: 'ada@acme.test' });
  });

  it('shows no button for an address without it, and says why an SSO sign-in came back', async () => {
    const api = mockApi();
    api.ok(postAuthSsoDiscover, { sso: false });
    const { user } = renderWithProviders(<Harness />, { route: '/login?sso_error=wrong-domain' });
    expect(screen.getByTestId('sso-error')).toHaveTextContent(SSO_ERRORS['wrong-domain']);
    await user.type(screen.getByLabelText('Email'), 'bob@example.test');
    await waitFor(() => expect(api.sent(postAuthSsoDiscover)).toHaveLength(1), { timeout: 3000 });
    expect(screen.queryByTestId('sso-continue')).toBeNull();
  });
});
