import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { putProfileById } from '#shared/contracts/profile';
import { getStatsVisits } from '#shared/contracts/engagement';
import type { Profile } from '#shared/schemas/profile';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';
import { mockApi, renderWithProviders } from '#web/test/render';
import { ProfileForm } from './profile-form';
import { TEST_USER, testProfile } from '#web/test/profile-fixture';

/**
 * Issue 37 (decision 37-09): the editor shows the stored E.164 number readable and saves E.164;
 * its placeholders read as examples; Save Profile is the form's primary (gold) action; each saved
 * link shows its click count.
 */

const USER = TEST_USER;

const PROFILE = testProfile({
  phoneNumber: '+12125550100',
  links: [
    { id: 7, linkType: 'website', url: 'https://ada.example.com', label: null },
    { id: 8, linkType: 'phone', url: 'tel:+442079460958', label: null },
  ],
});

function setup(profile: Profile | null = PROFILE, answer?: (api: ReturnType<typeof mockApi>) => void) {
  const api = mockApi();
  answer?.(api);
  const view = renderWithProviders(<ProfileForm profile={profile} />, { route: '/profile', seed: [[AUTH_USER_KEY, USER]] });
  return { api, ...view };
}

describe('<ProfileForm> polish', () => {
  it('shows the stored E.164 number readable, reads a typed one on leaving the field, and saves E.164', async () => {
    const { api, user } = setup();
    const phone = screen.getByLabelText('Phone number');
    expect(phone).toHaveValue('+1 212-555-0100');
    expect(phone).toHaveAccessibleDescription('A number without a country code is read as a US number.');
    // the phone link shows its number, not its tel: address
    expect(screen.getByLabelText('Link 2 URL')).toHaveValue('+44 207 946 0958');

    await user.clear(phone);
    await user.type(phone, '(646) 555.0199');
    await user.tab();
    expect(phone).toHaveValue('+1 646-555-0199');
    // a number it cannot read stays as typed, with the spec's message on saving (nothing sent)
    await user.clear(phone);
    await user.type(phone, '030 1234 5678');
    await user.tab();
    expect(phone).toHaveValue('030 1234 5678');
    await user.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Please enter a valid phone number')).toHaveAttribute('id', 'phoneNumber-error');
    expect(api.sent(putProfileById)).toHaveLength(0);

    api.ok(putProfileById, (req) => ({ ...PROFILE, ...(req.body as object) }) as Profile);
    await user.clear(phone);
    await user.type(phone, '+1 646 555 0199');
    await user.click(screen.getByRole('button', { name: 'Save Profile' }));
    await waitFor(() => expect(api.sent(putProfileById)).toHaveLength(1));
    const body = api.sent(putProfileById)[0]!.body as { phoneNumber: string; links: { url: string }[] };
    // sent as stored: E.164, the link its tel: address; shown readable again
    expect(body.phoneNumber).toBe('+16465550199');
    expect(body.links.map((l) => l.url)).toEqual(['https://ada.example.com', 'tel:+442079460958']);
    expect(screen.getByLabelText('Link 2 URL')).toHaveValue('+44 207 946 0958');
  });

  it('placeholders read as examples, in the lighter placeholder colour', () => {
    setup(null);
    for (const [label, example] of [
      ['Full name', 'e.g. Jane Doe'],
      ['Job title', 'e.g. Head of Sales'],
      ['Email', 'e.g. jane@example.com'],
      ['Phone number', 'e.g. +1 212-555-0100'],
      ['Company', 'e.g. Acme Inc.'],
      ['Address', 'e.g. 350 5th Ave, New York, NY'],
    ] as const) {
      const input = screen.getByLabelText(label);
      expect(input).toHaveAttribute('placeholder', example);
      expect(input.className).toContain('placeholder:text-placeholder');
    }
    expect(screen.queryByPlaceholderText('Head of Sales')).not.toBeInTheDocument();
    expect(screen.queryByPlaceholderText('Acme Inc.')).not.toBeInTheDocument();
  });

  it('Save Profile is the primary (gold) action', () => {
    setup();
    const save = screen.getByRole('button', { name: 'Save Profile' });
    expect(save).toHaveAttribute('type', 'submit');
    expect(save.className).toContain('bg-gold');
  });

  it("each saved link shows its click count, from the owner's stats", async () => {
    setup(PROFILE, (api) =>
      api.ok(getStatsVisits, {
        totalVisits: 4,
        visits: [],
        daily: [],
        linkClicks: [
          { linkId: 7, linkType: 'website', url: 'https://ada.example.com', clicks: 12 },
          { linkId: 8, linkType: 'phone', url: 'tel:+442079460958', clicks: 1 },
        ],
      }),
    );
    const rows = await waitFor(() => {
      const r = screen.getAllByTestId('link-row');
      expect(within(r[0]!).getByText('12 clicks')).toBeInTheDocument();
      return r;
    });
    expect(within(rows[1]!).getByText('1 click')).toBeInTheDocument();
  });
});
