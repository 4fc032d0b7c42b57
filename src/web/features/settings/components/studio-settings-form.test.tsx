import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { getAdminSettings, putAdminSettings } from '#shared/contracts/settings';
import type { ShopSettingsResponse, StudioSettings } from '#shared/schemas/settings';
import { mockApi, renderWithProviders } from '#web/test/render';
import { StudioSettingsForm } from './studio-settings-form';

const STUDIO: StudioSettings = {
  address: 'New York, NY',
  phone: '+1 212 555 0100',
  hours: 'Mon-Fri 9:00-6:00 EST',
  pickupInstructions: 'Ring the bell.',
};

/**
 * The settings as GET /api/admin/settings answers them: the form reads the studio section, the
 * placeholders and the save time (the other sections belong to the other settings forms).
 */
function settings(studio: StudioSettings, placeholders: string[] = [], updatedAt: string | null = null): ShopSettingsResponse {
  return { studio, placeholders, updatedAt } satisfies Partial<ShopSettingsResponse> as ShopSettingsResponse;
}

async function setup(initial = settings(STUDIO, ['studio.address'])) {
  const api = mockApi().ok(getAdminSettings, initial);
  const view = renderWithProviders(<StudioSettingsForm />, { route: '/admin' });
  await screen.findByRole('form', { name: 'Studio details' });
  return { api, ...view };
}

describe('<StudioSettingsForm>', () => {
  it('loads the studio section; a placeholder address is flagged; Save waits for a change', async () => {
    const { api } = await setup();
    expect(api.sent(getAdminSettings)[0]!.url).toBe('/api/admin/settings');
    expect(screen.getByLabelText('Address')).toHaveValue('New York, NY');
    expect(screen.getByLabelText('Phone')).toHaveValue('+1 212 555 0100');
    expect(screen.getByTestId('studio-placeholder')).toHaveTextContent('customers see only "New York, NY"');
    expect(screen.getByRole('button', { name: 'Save studio details' })).toBeDisabled();
  });

  it('required fields are refused with their messages before any save', async () => {
    const { api, user } = await setup();
    await user.clear(screen.getByLabelText('Address'));
    await user.clear(screen.getByLabelText('Phone'));
    await user.clear(screen.getByLabelText('Opening hours'));
    await user.click(screen.getByRole('button', { name: 'Save studio details' }));
    expect(await screen.findByText('Enter the studio address')).toBeInTheDocument();
    expect(screen.getByText('Enter the studio phone number')).toBeInTheDocument();
    expect(screen.getByText('Enter the opening hours')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone')).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent(putAdminSettings)).toHaveLength(0);
  });

  it('Save sends PUT with the studio section, then shows the saved values and a toast', async () => {
    const { api, user } = await setup();
    const address = '350 5th Ave\nNew York, NY 10118';
    api.ok(putAdminSettings, (req) => settings({ ...STUDIO, ...(req.body as { studio: StudioSettings }).studio }, [], '2026-11-26T12:00:00.000Z'));
    await user.clear(screen.getByLabelText('Address'));
    await user.type(screen.getByLabelText('Address'), '350 5th Ave{Enter}New York, NY 10118');
    await user.click(screen.getByRole('button', { name: 'Save studio details' }));
    expect(await screen.findByText('Studio details saved')).toBeInTheDocument();
    const [req] = api.sent(putAdminSettings);
    expect(req).toMatchObject({ method: 'PUT', url: '/api/admin/settings' });
    expect(req!.body).toEqual({ studio: { ...STUDIO, address } });
    await waitFor(() => expect(screen.queryByTestId('studio-placeholder')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Save studio details' })).toBeDisabled();
  });

  it("the server's field errors (studio.x) show beside the fields", async () => {
    const { api, user } = await setup();
    api.fail(putAdminSettings, 400, { message: 'Validation failed', errors: { 'studio.phone': 'Phone must be a single line of text' } });
    await user.type(screen.getByLabelText('Phone'), '1');
    await user.click(screen.getByRole('button', { name: 'Save studio details' }));
    expect(await screen.findByText('Phone must be a single line of text')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone')).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText('Could not save')).toBeInTheDocument();
  });
});
