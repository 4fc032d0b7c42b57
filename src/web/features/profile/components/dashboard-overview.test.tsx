import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { UserCard } from '#shared/schemas/profile';
import { mockApi, renderWithProviders } from '#web/test/render';
import { DashboardOverview } from './dashboard-overview';

/** Issue 37 item 6 (decision 37-09): the card's status in the words used elsewhere, never "Created" for a shipped card. */
const card = (over: Partial<UserCard> = {}): UserCard => ({
  id: 5,
  templateId: 1,
  templateName: 'Minimal',
  cardType: 'standard',
  status: 'approved',
  customizations: { layout: 'standard', backgroundColor: '#000000', textColor: '#ffffff', backgroundImageUrl: null, overlayColor: null, overlayOpacity: 0.2 },
  frontImageUrl: null,
  backImageUrl: null,
  qrCodeUrl: null,
  qrGenerated: false,
  orderId: 12,
  reviewNotes: null,
  submittedAt: '2026-11-30T10:00:00.000Z',
  ...over,
});

function statusOf(cards: UserCard[], orders?: Array<{ id: number; status: string; deliveryOption: string }>) {
  mockApi();
  const { unmount } = renderWithProviders(<DashboardOverview profile={null} cards={cards} stats={undefined} orders={orders} />);
  const text = screen.getByTestId('card-status').textContent;
  unmount();
  return text;
}

describe('<DashboardOverview> card status', () => {
  it("says where the card's order is, or its review, or that there is none", () => {
    expect(statusOf([card()], [{ id: 12, status: 'shipped', deliveryOption: 'standard' }])).toContain('Shipped');
    expect(statusOf([card()], [{ id: 12, status: 'ready-for-pickup', deliveryOption: 'pickup-nyc' }])).toContain('Ready for pickup');
    expect(statusOf([card()], [{ id: 12, status: 'completed', deliveryOption: 'standard' }])).toContain('Delivered');
    expect(statusOf([card({ orderId: null, status: 'pending' })], [])).toContain('In review');
    expect(statusOf([card({ orderId: null, status: 'rejected' })], [])).toContain('Needs changes');
    expect(statusOf([])).toContain('Not created');
    expect(statusOf([card()], [{ id: 12, status: 'shipped', deliveryOption: 'standard' }])).not.toContain('Created');
  });
});
