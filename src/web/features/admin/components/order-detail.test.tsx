import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { getAdminOrdersById, putAdminOrdersByIdNotes } from '#shared/contracts/admin';
import { ADMIN_NOTES_MAX } from '#shared/schemas/admin';
import { adminOrder } from '#web/test/admin-order';
import { mockApi, renderWithProviders } from '#web/test/render';
import { OrderDetailDialog } from './order-detail';

const ORDER = {
  ...adminOrder({ status: 'in-production' }),
  specialRequests: 'Rounded corners',
  internalNotes: 'Call before shipping',
  shippingAddress: { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'New York', state: 'NY', postalCode: '10001', country: 'US' },
  history: [{ id: 1, fromStatus: 'pending', toStatus: 'in-production', changedBy: 'staff@example.com', note: 'Net 30 account', createdAt: '2026-11-21T10:00:00.000Z' }],
};

function setup() {
  const api = mockApi().ok(getAdminOrdersById, ORDER);
  const view = renderWithProviders(<OrderDetailDialog orderId={17} onClose={vi.fn()} fullScreen />, { route: '/admin' });
  return { api, ...view };
}

describe('<OrderDetailDialog>', () => {
  it('asks the order by id and shows customer, address, requests, history and the status moves', async () => {
    const { api } = setup();
    const dialog = await screen.findByTestId('order-detail');
    expect(await within(dialog).findByText('Rounded corners')).toBeInTheDocument();
    expect(api.sent(getAdminOrdersById).map((r) => r.url)).toEqual(['/api/admin/orders/17']);
    expect(within(dialog).getByRole('heading', { name: 'Order #17' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('admin-ship-to')).toHaveTextContent('1 Main St');
    expect(within(dialog).getByRole('list', { name: 'Status history' })).toHaveTextContent('Net 30 account');
    expect(within(dialog).getByRole('button', { name: 'Mark Shipped...' })).toBeEnabled();
  });

  it("an order that cannot be read shows the server's message", async () => {
    const api = mockApi().fail(getAdminOrdersById, 404, { message: 'Order not found' });
    renderWithProviders(<OrderDetailDialog orderId={99} onClose={vi.fn()} />);
    expect(await screen.findByText('Order not found')).toBeInTheDocument();
    expect(api.sent(getAdminOrdersById)[0]!.url).toBe('/api/admin/orders/99');
  });

  it('internal notes: Save waits for a change, refuses too long a text, and PUTs the notes', async () => {
    const { api, user } = setup();
    const notes = await screen.findByLabelText('Internal notes');
    const save = screen.getByRole('button', { name: 'Save Notes' });
    expect(notes).toHaveValue('Call before shipping');
    expect(save).toBeDisabled();

    await user.click(notes);
    await user.paste('x'.repeat(ADMIN_NOTES_MAX));
    expect(notes).toHaveAttribute('aria-invalid', 'true');
    expect(save).toBeDisabled();

    await user.clear(notes);
    await user.type(notes, 'Customer collects on Friday');
    expect(save).toBeEnabled();
    api.ok(putAdminOrdersByIdNotes, { ...ORDER, internalNotes: 'Customer collects on Friday' });
    await user.click(save);
    expect(await screen.findByText('Notes saved')).toBeInTheDocument();
    expect(api.sent(putAdminOrdersByIdNotes)[0]).toMatchObject({ method: 'PUT', url: '/api/admin/orders/17/notes', body: { notes: 'Customer collects on Friday' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Notes' })).toBeDisabled());
  });
});
