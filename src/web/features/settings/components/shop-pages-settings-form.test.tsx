import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { getAdminSettings, putAdminSettings } from '#shared/contracts/settings';
import type { ShopSettingsResponse } from '#shared/schemas/settings';
import { mockApi, renderWithProviders } from '#web/test/render';
import { ShopPagesSettingsForm } from './shop-pages-settings-form';

/** Admin > Settings, claims (issue 37, decision 37-04): staff add and remove claims as the API allows, not only edit and hide. */
const SETTINGS = {
  maxProfileLinks: 3,
  claims: [
    { id: 'satisfaction', text: '98% customer satisfaction', shown: true },
    { id: 'average-delivery', text: '24-48 hour delivery', shown: false },
  ],
  legal: { privacy: 'Privacy text', terms: 'Terms text' },
  updatedAt: null,
} satisfies Partial<ShopSettingsResponse> as ShopSettingsResponse;

async function setup() {
  const api = mockApi().ok(getAdminSettings, SETTINGS);
  const view = renderWithProviders(<ShopPagesSettingsForm />, { route: '/admin' });
  await screen.findByRole('form', { name: 'Claims, profile links and legal pages' });
  return { api, ...view };
}

describe('<ShopPagesSettingsForm> claims', () => {
  it('adds a claim (its own id, shown) and removes one; Save sends the list as it should be', async () => {
    const { api, user } = await setup();
    api.ok(putAdminSettings, (req) => ({ ...SETTINGS, ...(req.body as object) }) as ShopSettingsResponse);
    await user.click(screen.getByRole('button', { name: 'Add claim' }));
    // an empty claim is refused beside it, before any request
    await user.click(screen.getByRole('button', { name: 'Save claims and pages' }));
    expect(await screen.findByText('Enter the claim, or untick Shown to hide it')).toBeInTheDocument();
    expect(api.sent(putAdminSettings)).toHaveLength(0);

    await user.type(screen.getByLabelText('Claim 3'), 'Made in New York');
    await user.click(screen.getByRole('button', { name: 'Remove claim 1' }));
    await user.click(screen.getByRole('button', { name: 'Save claims and pages' }));
    await waitFor(() => expect(api.sent(putAdminSettings)).toHaveLength(1));
    expect((api.sent(putAdminSettings)[0]!.body as { claims: unknown }).claims).toEqual([
      { id: 'average-delivery', text: '24-48 hour delivery', shown: false },
      { id: 'claim-3', text: 'Made in New York', shown: true },
    ]);
  });
});
