import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { getTeamMembers, getTeamOrders } from '#shared/contracts/team';
import type { TeamOrder } from '#shared/schemas/team';
import { mockApi, renderWithProviders } from '#web/test/render';
import { CardsTab } from './cards-tab';

/** Issue 37 item 6 (decision 37-09): the team's orders speak in the labels used elsewhere; a pickup asks no address. */
const order = (over: Partial<TeamOrder>): TeamOrder => ({
  orderId: 41,
  status: 'pending',
  statusPath: '/order-status/41',
  cardType: 'standard',
  cardStyle: 'Matte',
  deliveryOption: 'pickup-nyc',
  quantity: 50,
  totalCents: 5000,
  createdAt: '2026-11-30T10:00:00.000Z',
  cards: [],
  ...over,
});

describe('<CardsTab>', () => {
  it('shows order statuses by their human labels, never the raw slug', async () => {
    const api = mockApi();
    api.ok(getTeamMembers, { members: [], invites: [] });
    api.ok(getTeamOrders, {
      orders: [
        order({ orderId: 41, status: 'ready-for-pickup' }),
        order({ orderId: 42, status: 'in-production', statusPath: '/order-status/42' }),
        order({ orderId: 43, status: 'completed', statusPath: '/order-status/43' }),
        order({ orderId: 44, status: 'completed', deliveryOption: 'standard', statusPath: '/order-status/44' }),
      ],
    });
    renderWithProviders(<CardsTab defaultAddress="" />);
    expect(await screen.findByRole('link', { name: 'Order status: Ready for pickup' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Order status: In production' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Order status: Collected' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Order status: Delivered' })).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/ready-for-pickup|in-production/);
  });

  it('a pickup asks for no delivery address; a delivery does', async () => {
    const api = mockApi();
    api.ok(getTeamMembers, { members: [], invites: [] });
    api.ok(getTeamOrders, { orders: [] });
    const { user } = renderWithProviders(<CardsTab defaultAddress="" />);
    const delivery = await screen.findByLabelText('Delivery');
    await user.selectOptions(delivery, 'pickup-nyc');
    expect(screen.queryByText('Delivery address (one delivery for everyone)')).toBeNull();
    expect(screen.getByText('Picked up at our New York studio: no delivery address needed.')).toBeInTheDocument();
    await user.selectOptions(delivery, 'standard');
    expect(screen.getByText('Delivery address (one delivery for everyone)')).toBeInTheDocument();
  });
});
