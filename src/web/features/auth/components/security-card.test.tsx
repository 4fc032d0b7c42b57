import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import {
  deleteAccountTwoFactorTotp,
  getAccountPasskeys,
  getAccountTwoFactor,
  patchAccountPasskey,
  postAccountTwoFactorTotp,
  postAccountTwoFactorTotpConfirm,
} from '#shared/contracts/auth';
import { TWO_FACTOR_MESSAGES } from '#shared/schemas/auth';
import { mockApi, renderWithProviders } from '#web/test/render';
import { SecurityCard } from './security-card';

const status = (over: Record<string, unknown> = {}) => ({
  totp: 'off' as const,
  recoveryCodesLeft: 0,
  passkeys: 0,
  sessionVerified: false,
  staffSetupRequired: false,
  authenticatedAt: '2026-11-27T01:00:00.000Z',
  ...over,
});
const CODES = Array.from({ length: 10 }, (_, i) => `abcde-fgh${i}k`);
const OTPAUTH = 'otpauth://totp/Metal%20Cards:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Metal+Cards';

describe('<SecurityCard>', () => {
  it('sets up the authenticator app: QR code of the otpauth URI, a wrong code beside the field, then the ten recovery codes', async () => {
    const api = mockApi();
    api.ok(getAccountTwoFactor, status({ staffSetupRequired: true }));
    api.ok(getAccountPasskeys, { passkeys: [] });
    api.ok(postAccountTwoFactorTotp, { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUrl: OTPAUTH });
    api.fail(postAccountTwoFactorTotpConfirm, 400, { message: TWO_FACTOR_MESSAGES.wrongCode, errors: { code: TWO_FACTOR_MESSAGES.wrongCode } });
    const { user } = renderWithProviders(<SecurityCard />);
    expect(await screen.findByTestId('staff-setup-required')).toHaveTextContent('Staff accounts need a second factor');
    expect(screen.getByText('This browser cannot create passkeys.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr).toHaveAttribute('data-qr-value', OTPAUTH);
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');

    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.codeNeeded)).toBeInTheDocument();
    expect(api.sent(postAccountTwoFactorTotpConfirm)).toHaveLength(0);
    await user.type(screen.getByLabelText(/Code from the app/), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.wrongCode)).toBeInTheDocument();

    api.ok(postAccountTwoFactorTotpConfirm, { recoveryCodes: CODES });
    api.ok(getAccountTwoFactor, status({ totp: 'on', recoveryCodesLeft: 10, sessionVerified: true }));
    await user.clear(screen.getByLabelText(/Code from the app/));
    await user.type(screen.getByLabelText(/Code from the app/), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const codes = await screen.findByTestId('recovery-codes');
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    expect(api.sent(postAccountTwoFactorTotpConfirm).at(-1)!.body).toEqual({ code: '654321' });
    await waitFor(() => expect(screen.getByTestId('totp-state')).toHaveTextContent('On'));
    expect(screen.queryByTestId('staff-setup-required')).toBeNull();
  });

  it('turns the app off with the password (a wrong one shown beside the field)', async () => {
    const api = mockApi();
    api.ok(getAccountTwoFactor, status({ totp: 'on', recoveryCodesLeft: 7 }));
    api.ok(getAccountPasskeys, { passkeys: [] });
    api.fail(deleteAccountTwoFactorTotp, 400, { message: TWO_FACTOR_MESSAGES.wrongPassword, errors: { password: TWO_FACTOR_MESSAGES.wrongPassword } });
    const { user } = renderWithProviders(<SecurityCard />);
    expect(await screen.findByText(/Recovery codes left: 7/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'nope-nope');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.wrongPassword)).toBeInTheDocument();
    expect(api.sent(deleteAccountTwoFactorTotp)[0]!.body).toEqual({ password: 'nope-nope' });
  });

  it('lists passkeys and renames one', async () => {
    const api = mockApi();
    const pk = { id: '5b0f6f3e-2b7c-4a39-9d2a-1f0e7c9a1b2c', name: 'Laptop', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: null, backedUp: true };
    api.ok(getAccountTwoFactor, status({ passkeys: 1, sessionVerified: true }));
    api.ok(getAccountPasskeys, { passkeys: [pk] });
    api.ok(patchAccountPasskey, { ...pk, name: 'Work laptop' });
    const { user } = renderWithProviders(<SecurityCard />);
    const row = await screen.findByTestId('passkey-row');
    expect(row).toHaveTextContent('not used yet');
    expect(row).toHaveTextContent('(synced)');
    const input = within(row).getByLabelText('Name');
    await user.clear(input);
    await user.type(input, 'Work laptop');
    await user.click(within(row).getByRole('button', { name: 'Save name' }));
    await waitFor(() => expect(api.sent(patchAccountPasskey)).toHaveLength(1));
    expect(api.sent(patchAccountPasskey)[0]!.path).toBe(`/api/account/passkeys/${pk.id}`);
    expect(api.sent(patchAccountPasskey)[0]!.body).toEqual({ name: 'Work laptop' });
  });
});
