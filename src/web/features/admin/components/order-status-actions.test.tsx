import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { getAdminOrdersById, patchAdminOrdersById } from '#shared/contracts/admin';
import { postAdminOrdersByIdPickupReady, postAdminOrdersByIdShipment } from '#shared/contracts/production';
import type { AdminOrderDetail } from '#shared/schemas/admin';
import { adminOrder as order } from '#web/test/admin-order';
import { TRACKING_MESSAGES, trackingNumberError } from '#shared/production/tracking';
import { mockApi, renderWithProviders } from '#web/test/render';
import { OrderStatusActions } from './order-status-actions';

const UPS = '1Z999AA10123456784';

const moved = (o: AdminOrderDetail, status: string) => ({ ...o, status, workflow: { ...o.workflow, facts: { ...o.workflow.facts, status } }, changed: true });
const moveButton = (status: string) => screen.getAllByRole('button').find((b) => b.getAttribute('data-move') === status)!;

describe('<OrderStatusActions>', () => {
  it("offers only the status machine's moves, each blocked one saying what it needs", () => {
    mockApi();
    renderWithProviders(<OrderStatusActions order={order({ designApproved: false, proofApproved: false, paid: true })} />);
    const moves = within(screen.getByRole('list', { name: 'Status moves' }));
    expect(moves.getAllByRole('button').map((b) => b.getAttribute('data-move'))).toEqual(['processing', 'in-production', 'cancelled']);
    expect(screen.getByTestId('missing-in-production')).toHaveTextContent("Needs an approved design, the customer's proof approval");
    expect(moveButton('in-production')).toBeDisabled();
    expect(moveButton('processing')).toBeEnabled();
  });

  it('the proof state is spelled out, with the customer’s message when they asked for changes', () => {
    mockApi();
    renderWithProviders(<OrderStatusActions order={order({}, { state: 'changes', message: 'Bigger logo please' })} />);
    expect(screen.getByTestId('order-proof-state')).toHaveTextContent('The customer asked for changes.');
    expect(screen.getByTestId('order-proof-state')).toHaveTextContent('“Bigger logo please”');
  });

  it('with changes asked, staff see which cards the customer named (issue 37)', () => {
    mockApi();
    renderWithProviders(
      <OrderStatusActions order={order({}, { state: 'changes', message: "Bob's title is Head of Sales.", cards: [{ id: 41, name: 'Bob Baker' }, { id: 43, name: 'Cy Chen' }] })} />,
    );
    const named = within(screen.getByRole('list', { name: 'Cards the customer named' }));
    expect(named.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Bob Baker #41', 'Cy Chen #43']);
    expect(screen.getByTestId('order-proof-cards')).toHaveTextContent('Cards to change (2):');
  });

  it('no named cards are shown unless changes were asked', () => {
    mockApi();
    renderWithProviders(<OrderStatusActions order={order({}, { state: 'awaiting', message: null })} />);
    expect(screen.queryByTestId('order-proof-cards')).not.toBeInTheDocument();
  });

  it('a final status offers no move', () => {
    mockApi();
    renderWithProviders(<OrderStatusActions order={order({ status: 'completed' })} />);
    expect(screen.queryByRole('list', { name: 'Status moves' })).not.toBeInTheDocument();
    expect(screen.getByText(/is final: no more moves\./)).toBeInTheDocument();
  });

  it('a move that e-mails nobody is sent at once: PATCH with the status, then a toast', async () => {
    const api = mockApi();
    const o = order();
    api.ok(patchAdminOrdersById, moved(o, 'processing'));
    const { user } = renderWithProviders(<OrderStatusActions order={o} />);
    await user.click(moveButton('processing'));
    await waitFor(() => expect(api.sent(patchAdminOrdersById)).toHaveLength(1));
    expect(api.sent(patchAdminOrdersById)[0]).toMatchObject({ method: 'PATCH', url: '/api/admin/orders/17', body: { status: 'processing' } });
    expect(screen.queryByTestId('status-confirm')).not.toBeInTheDocument();
    expect(await screen.findByText('Order updated')).toBeInTheDocument();
  });

  it('a milestone asks first (the customer is e-mailed); Cancel sends nothing', async () => {
    const api = mockApi();
    const o = order();
    api.ok(patchAdminOrdersById, moved(o, 'in-production'));
    const { user } = renderWithProviders(<OrderStatusActions order={o} />);
    await user.click(moveButton('in-production'));
    const dialog = await screen.findByTestId('status-confirm');
    expect(within(dialog).getByText('Ada Lovelace gets an e-mail about this step.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('status-confirm')).not.toBeInTheDocument());
    expect(api.requests).toHaveLength(0);

    await user.click(moveButton('in-production'));
    await user.click(within(await screen.findByTestId('status-confirm')).getByRole('button', { name: 'Move and e-mail the customer' }));
    await waitFor(() => expect(api.sent(patchAdminOrdersById)).toHaveLength(1));
    expect(api.sent(patchAdminOrdersById)[0]!.body).toEqual({ status: 'in-production' });
    await waitFor(() => expect(screen.queryByTestId('status-confirm')).not.toBeInTheDocument());
  });

  it('unpaid: production needs an override reason; Move stays disabled until one is typed, and it is sent', async () => {
    const api = mockApi();
    const o = order({ paid: false });
    api.ok(patchAdminOrdersById, moved(o, 'in-production'));
    const { user } = renderWithProviders(<OrderStatusActions order={o} />);
    expect(screen.getByTestId('missing-in-production')).toHaveTextContent('Needs payment (or a payment override with a reason)');
    await user.click(moveButton('in-production'));
    const dialog = await screen.findByTestId('status-confirm');
    const submit = within(dialog).getByRole('button', { name: 'Move and e-mail the customer' });
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Start production unpaid: reason'), '  Net 30 account  ');
    expect(submit).toBeEnabled();
    await user.click(submit);
    await waitFor(() => expect(api.sent(patchAdminOrdersById)).toHaveLength(1));
    expect(api.sent(patchAdminOrdersById)[0]!.body).toEqual({ status: 'in-production', overrideReason: 'Net 30 account' });
  });

  it('shipping checks the tracking number in the dialog before any request, then records the shipment', async () => {
    expect(trackingNumberError('ups', UPS)).toBeNull();
    const api = mockApi();
    const o = order({ status: 'in-production' });
    // the shipment's own answer is not read: the detail is asked again after it
    api.on(postAdminOrdersByIdShipment, () => ({ body: {} }));
    api.ok(getAdminOrdersById, moved(o, 'shipped'));
    const { user } = renderWithProviders(<OrderStatusActions order={o} />);
    await user.click(screen.getByRole('button', { name: 'Mark Shipped...' }));
    const dialog = await screen.findByTestId('status-confirm');
    const submit = within(dialog).getByRole('button', { name: 'Move and e-mail the customer' });
    await user.click(submit);
    expect(await within(dialog).findByText(TRACKING_MESSAGES.required)).toHaveAttribute('id', 'confirm-tracking-error');
    await user.type(within(dialog).getByLabelText('Tracking number'), '1Z123');
    expect(within(dialog).getByText(TRACKING_MESSAGES.ups)).toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText('Carrier'), 'fedex');
    expect(within(dialog).getByText(TRACKING_MESSAGES.fedex)).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);

    await user.selectOptions(within(dialog).getByLabelText('Carrier'), 'ups');
    await user.clear(within(dialog).getByLabelText('Tracking number'));
    await user.type(within(dialog).getByLabelText('Tracking number'), UPS);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(submit);
    await waitFor(() => expect(api.sent(getAdminOrdersById)).toHaveLength(1));
    expect(api.sent(postAdminOrdersByIdShipment)[0]).toMatchObject({ method: 'POST', url: '/api/admin/orders/17/shipment', body: { carrier: 'ups', trackingNumber: UPS } });
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/admin/orders/17/shipment', 'GET /api/admin/orders/17']);
  });

  it('a pickup order offers Ready for pickup (not shipping) and posts it', async () => {
    const api = mockApi();
    const o = order({ status: 'in-production', deliveryOption: 'pickup-nyc', hasAddress: false });
    api.on(postAdminOrdersByIdPickupReady, () => ({ body: {} }));
    api.ok(getAdminOrdersById, moved(o, 'ready-for-pickup'));
    const { user } = renderWithProviders(<OrderStatusActions order={o} />);
    expect(screen.queryByRole('button', { name: 'Mark Shipped...' })).not.toBeInTheDocument();
    await user.click(moveButton('ready-for-pickup'));
    await user.click(within(await screen.findByTestId('status-confirm')).getByRole('button', { name: 'Move and e-mail the customer' }));
    await waitFor(() => expect(api.sent(postAdminOrdersByIdPickupReady)).toHaveLength(1));
    expect(api.sent(postAdminOrdersByIdPickupReady)[0]).toMatchObject({ url: '/api/admin/orders/17/pickup-ready', body: {} });
  });

  it("a refused move (409) shows the server's reason in a destructive toast; the buttons come back", async () => {
    const api = mockApi();
    const message = 'The order cannot move to In Production yet: it needs payment.';
    const held = api.hold(patchAdminOrdersById);
    const { user } = renderWithProviders(<OrderStatusActions order={order()} />);
    await user.click(moveButton('processing'));
    await held.seen;
    await waitFor(() => expect(moveButton('cancelled')).toBeDisabled());
    held.release({ status: 409, body: { message } });
    expect(await screen.findByText('Status update failed')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    await waitFor(() => expect(moveButton('cancelled')).toBeEnabled());
  });
});
