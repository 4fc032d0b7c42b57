import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { postTeamJoinByTokenAccount } from '#shared/contracts/team';
import type { TeamJoinInfo } from '#shared/schemas/team';
import { currentLocation, mockApi, renderWithProviders } from '#web/test/render';
import { JoinNewAccountForm } from './join-new-account-form';

/** Issue 37 item 6 (decision 37-09): the invitation page asks only what the invitation does not know. */
const info = (over: Partial<TeamJoinInfo> = {}): TeamJoinInfo => ({
  teamName: 'Northwind',
  email: 'ann@northwind.test',
  fullName: 'Ann Archer',
  role: 'member',
  invitedBy: 'Olivia Owner',
  expiresAt: '2026-12-08T10:00:00.000Z',
  ...over,
});
const TOKEN = 'a'.repeat(32);

describe('<JoinNewAccountForm>', () => {
  it('asks only for a password when the invitation names the person; joins and opens the team page', async () => {
    const api = mockApi();
    api.ok(postTeamJoinByTokenAccount, {} as never);
    const { user } = renderWithProviders(<JoinNewAccountForm token={TOKEN} info={info()} />, { route: `/team/join/${TOKEN}` });
    expect(screen.queryByLabelText(/Username/)).toBeNull();
    expect(screen.queryByLabelText(/Your full name/)).toBeNull();
    expect(screen.queryByLabelText(/^Email/)).toBeNull();
    expect(screen.getByText('ann@northwind.test')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Choose a password/), 'a-good-long-password-7');
    await user.click(screen.getByRole('button', { name: 'Create account and join Northwind' }));
    await expect.poll(() => currentLocation()).toBe('/team');
    const sent = api.requests.find((r) => r.method === 'POST');
    expect(sent?.path).toBe(`/api/team/join/${TOKEN}/account`);
    expect(sent?.body).toEqual({ password: 'a-good-long-password-7' });
  });

  it('asks for the name only when the invitation has none', async () => {
    mockApi();
    renderWithProviders(<JoinNewAccountForm token={TOKEN} info={info({ fullName: null })} />);
    expect(screen.getByLabelText(/Your full name/)).toBeInTheDocument();
  });
});
