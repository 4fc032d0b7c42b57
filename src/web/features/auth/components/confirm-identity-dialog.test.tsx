import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { getAccountTwoFactor, postAuthReauthenticate } from '#shared/contracts/auth';
import { getAdminAudit, getAdminAuditCsv } from '#shared/contracts/audit';
import { getAdminOrdersByIdNfcCsv, getAdminProduction } from '#shared/contracts/production';
import type { Endpoint } from '#shared/contracts/endpoint';
import { RECENT_AUTH_REQUIRED, TWO_FACTOR_MESSAGES } from '#shared/schemas/auth';
import type { ProductionOrder } from '#shared/schemas/production';
import { AdminAuditLog } from '#web/features/audit/components/audit-log';
import { ProductionTab } from '#web/features/production/components/production-tab';
import { mockApi, renderWithProviders } from '#web/test/render';
import { ConfirmIdentityDialog } from './confirm-identity-dialog';

/**
 * "Confirm it is you" on the staff downloads the recent-auth check guards besides the orders CSV
 * (issue 39, decision 39-05): the identity audit log CSV and an order's NFC CSV are fetched, so the
 * server's `recent_auth_required` refusal opens the dialog, and once the password is confirmed the
 * same download is sent again and saved, without a second click.
 */

const AT = '2026-12-01T10:00:00.000Z';
const PASSWORD = 'correct-horse-1';

/** What the page saved: the file names of the downloads and their contents. */
let saved: Array<{ name: string; blob: Blob }>;
beforeEach(() => {
  saved = [];
  const blobs: Blob[] = [];
  // jsdom has no object URLs and does not download: the saved file is the Blob behind the clicked link
  URL.createObjectURL = vi.fn((b: Blob) => {
    blobs.push(b);
    return `blob:test/${blobs.length - 1}`;
  });
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const i = Number(/blob:test\/(\d+)$/.exec(this.href)?.[1]);
    if (this.download && blobs[i]) saved.push({ name: this.download, blob: blobs[i] });
  });
});

/** A staff session whose sign-in is older than the window: the guarded download is refused once, then answered. */
function staffApi(guarded: Endpoint, file: string) {
  const api = mockApi();
  let fresh = false;
  api.ok(getAccountTwoFactor, { totp: 'off', recoveryCodesLeft: 0, passkeys: 0, sessionVerified: false, staffSetupRequired: false, authenticatedAt: AT });
  api.on(postAuthReauthenticate, (req) => {
    if ((req.body as { password?: string }).password !== PASSWORD) return { status: 400, body: { message: TWO_FACTOR_MESSAGES.wrongPassword, errors: { password: TWO_FACTOR_MESSAGES.wrongPassword } } };
    fresh = true;
    return { body: { authenticatedAt: AT } };
  });
  api.on(guarded, () => (fresh ? { body: file } : { status: 403, body: { message: TWO_FACTOR_MESSAGES.recentAuth, code: RECENT_AUTH_REQUIRED } }));
  return api;
}

const dialog = () => screen.findByRole('dialog', { name: 'Confirm it is you' });

describe('"Confirm it is you" on the staff downloads', () => {
  it('the audit log CSV: refused, the dialog asks for the password (a wrong one said beside the field), then the file is saved', async () => {
    const api = staffApi(getAdminAuditCsv, 'Time,Kind\r\n');
    api.ok(getAdminAudit, { events: [], total: 0, page: 1, pageSize: 50, retentionDays: 365 });
    const { user } = renderWithProviders(
      <>
        <AdminAuditLog />
        <ConfirmIdentityDialog />
      </>,
    );
    await user.selectOptions(screen.getByLabelText('Event'), 'two-factor-enabled');
    await user.click(screen.getByTestId('admin-audit-csv'));
    const d = await dialog();
    expect(saved).toEqual([]);
    await user.type(within(d).getByLabelText('Your password'), 'not-my-password');
    await user.click(within(d).getByRole('button', { name: 'Confirm' }));
    expect(await within(d).findByText(TWO_FACTOR_MESSAGES.wrongPassword)).toBeInTheDocument();
    expect(saved).toEqual([]);
    await user.clear(within(d).getByLabelText('Your password'));
    await user.type(within(d).getByLabelText('Your password'), PASSWORD);
    await user.click(within(d).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('audit-log.csv');
    expect(await saved[0]!.blob.text()).toContain('Time,Kind');
    // the same request twice: refused, then sent again after the confirmation, with the chosen event kind
    const sent = api.sent(getAdminAuditCsv);
    expect(sent.map((r) => r.url)).toEqual(['/api/admin/audit.csv?kind=two-factor-enabled', '/api/admin/audit.csv?kind=two-factor-enabled']);
    expect(api.sent(postAuthReauthenticate).map((r) => r.body)).toEqual([{ password: 'not-my-password' }, { password: PASSWORD }]);
    expect(await screen.findByText('Export ready')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument());
  });

  it('the audit log CSV: closing the dialog leaves the export refused (nothing saved, no second request)', async () => {
    const api = staffApi(getAdminAuditCsv, 'Time,Kind\r\n');
    api.ok(getAdminAudit, { events: [], total: 0, page: 1, pageSize: 50, retentionDays: 365 });
    const { user } = renderWithProviders(
      <>
        <AdminAuditLog />
        <ConfirmIdentityDialog />
      </>,
    );
    await user.click(screen.getByTestId('admin-audit-csv'));
    const d = await dialog();
    await user.click(within(d).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('Export failed')).toBeInTheDocument();
    expect(saved).toEqual([]);
    expect(api.sent(getAdminAuditCsv)).toHaveLength(1);
    expect(api.sent(postAuthReauthenticate)).toHaveLength(0);
  });

  it("an order's NFC CSV: refused, confirmed with the password, then saved under the order's name", async () => {
    const order: ProductionOrder = {
      id: 42,
      customerName: 'Ada Lovelace',
      companyName: null,
      cardType: 'standard',
      cardTypeLabel: 'Standard Metal',
      cardStyle: 'Matte',
      quantity: 100,
      deliveryOption: 'standard',
      deliveryLabel: 'Standard',
      status: 'in-production',
      statusLabel: 'In production',
      approvedAt: AT,
      earliestAt: AT,
      dueAt: AT,
      overdue: false,
      cardIds: [],
      hasArtwork: true,
      codes: ['NFCA23'],
      fulfilment: null,
    };
    const api = staffApi(getAdminOrdersByIdNfcCsv, 'code,url\r\nNFCA23,https://cards.test/c/NFCA23\r\n');
    api.ok(getAdminProduction, { orders: [order], now: AT });
    const { user } = renderWithProviders(
      <>
        <ProductionTab />
        <ConfirmIdentityDialog />
      </>,
    );
    await user.click(await screen.findByRole('button', { name: 'NFC CSV' }));
    const d = await dialog();
    expect(saved).toEqual([]);
    await user.type(within(d).getByLabelText('Your password'), PASSWORD);
    await user.click(within(d).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('nfc-order-42.csv');
    expect(await saved[0]!.blob.text()).toContain('NFCA23');
    expect(api.sent(getAdminOrdersByIdNfcCsv).map((r) => r.url)).toEqual(['/api/admin/orders/42/nfc.csv', '/api/admin/orders/42/nfc.csv']);
    expect(await screen.findByText('Download ready')).toBeInTheDocument();
  });
});
