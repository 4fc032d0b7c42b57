import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { ORDER_MESSAGES, ADDRESS_MESSAGES } from '#shared/schemas/orders';
import { postOrder } from '#shared/contracts/orders';
import { currentLocation, mockApi, renderWithProviders } from '#web/test/render';
import { OrderForm } from './order-form';

const placed = {
  id: 41,
  orderId: 41,
  status: 'pending',
  totalCents: 40000,
  total: '$400.00',
  statusUrl: '/order-status/tok',
  checkoutUrl: null,
  replayed: false,
  message: 'Order placed',
};

function setup(opts: Parameters<typeof renderWithProviders>[1] = {}) {
  const api = mockApi();
  const view = renderWithProviders(<OrderForm />, { route: '/order', ...opts });
  const form = screen.getByRole('form', { name: 'Place your order' });
  return { api, ...view, form };
}

async function fillRequired(user: ReturnType<typeof setup>['user']) {
  await user.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.click(screen.getByRole('radio', { name: /Standard Metal/ }));
  await user.selectOptions(screen.getByLabelText('Card style'), 'Brushed');
  await user.click(screen.getByRole('radio', { name: /Pickup NYC/ }));
}

describe('<OrderForm>', () => {
  it("an empty submit shows the spec's messages beside the fields and sends nothing", async () => {
    const { api, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Submit Order' }));
    expect(await screen.findByText(ORDER_MESSAGES.customerName)).toBeInTheDocument();
    expect(screen.getByText('Your name is required')).toHaveAttribute('id', 'order-name-error');
    expect(screen.getByText('Enter a valid email')).toHaveAttribute('id', 'order-email-error');
    expect(screen.getByText('Select a card type')).toBeInTheDocument();
    expect(screen.getByText('Select a card style')).toHaveAttribute('id', 'order-style-error');
    expect(screen.getByText('Select a delivery option')).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Full name')).toHaveAttribute('aria-describedby', 'order-name-error');
    expect(api.requests).toHaveLength(0);
  });

  it('quantity: default 100, bounds 1 and 5000 with their messages', async () => {
    const { api, user } = setup();
    const qty = screen.getByLabelText('Quantity');
    expect(qty).toHaveValue(100);
    expect(qty).toHaveAttribute('min', '1');
    expect(qty).toHaveAttribute('max', '5000');
    await user.clear(qty);
    await user.type(qty, '0');
    await user.click(screen.getByRole('button', { name: 'Submit Order' }));
    expect(await screen.findByText(ORDER_MESSAGES.quantityMin)).toHaveAttribute('id', 'order-quantity-error');
    await user.clear(qty);
    await user.type(qty, '5001');
    expect(await screen.findByText('Too many')).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });

  it('a message goes away once the field is corrected (re-validates on change)', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Submit Order' }));
    await screen.findByText('Your name is required');
    await user.type(screen.getByLabelText('Full name'), 'A');
    await waitFor(() => expect(screen.queryByText('Your name is required')).not.toBeInTheDocument());
    expect(screen.getByText('Enter a valid email')).toBeInTheDocument();
  });

  it("submits the spec's payload to the order endpoint, then shows the success page with the total", async () => {
    const { api, user } = setup();
    api.ok(postOrder, placed);
    await fillRequired(user);
    await user.type(screen.getByLabelText('Company (optional)'), 'Analytical Engines');
    await user.type(screen.getByLabelText('Special requests (optional)'), 'Rounded corners');
    await user.click(screen.getByRole('button', { name: 'Submit Order' }));

    await waitFor(() => expect(currentLocation()).toBe('/order-success?orderId=41'));
    const [req] = api.sent(postOrder);
    expect(req).toMatchObject({ method: 'POST', url: '/api/order' });
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['idempotency-key']).toMatch(/^[A-Za-z0-9_.:-]{8,100}$/);
    expect(req!.headers['x-form-session']).toMatch(/^[0-9a-f]{32,}$/);
    expect(req!.body).toEqual({
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      items: [
        {
          title: '100× standard',
          quantity: 100,
          properties: [
            { name: 'Card Style', value: 'Brushed' },
            { name: 'Company', value: 'Analytical Engines' },
            { name: 'Special Requests', value: 'Rounded corners' },
          ],
        },
      ],
      notes: 'Delivery option: pickup-nyc',
    });
    expect(await screen.findByText('Order submitted')).toBeInTheDocument();
    expect(screen.getByText('We e-mailed you a link to your order page (total $400.00).')).toBeInTheDocument();
    expect(api.unanswered).toEqual([]);
  });

  it('a shipped delivery asks for the address (its own messages) before any request', async () => {
    const { api, user } = setup();
    await fillRequired(user);
    await user.click(screen.getByRole('radio', { name: /Free, 5-7 business days/ }));
    expect(await screen.findByRole('heading', { name: 'Delivery address' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Order' }));
    expect(await screen.findByText(ADDRESS_MESSAGES.name)).toBeInTheDocument();
    expect(screen.getByText(ADDRESS_MESSAGES.line1)).toBeInTheDocument();
    expect(screen.getByText(ADDRESS_MESSAGES.city)).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });

  it("the server's field errors show beside the fields, with a destructive toast", async () => {
    const { api, user } = setup();
    api.fail(postOrder, 400, { message: 'Please check the form', errors: { email: 'This address cannot receive mail', customerName: 'Name rejected' } });
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Submit Order' }));
    expect(await screen.findByText('This address cannot receive mail')).toHaveAttribute('id', 'order-email-error');
    expect(screen.getByText('Name rejected')).toHaveAttribute('id', 'order-name-error');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText('Could not submit order')).toBeInTheDocument();
    expect(screen.getByText('Please check the form')).toBeInTheDocument();
    expect(currentLocation()).toBe('/order');
  });

  it('while the order is sent the button says so and is disabled; a retry reuses the same idempotency key', async () => {
    const { api, user } = setup();
    const held = api.hold(postOrder);
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Submit Order' }));
    await held.seen;
    const busy = await screen.findByRole('button', { name: 'Submitting...' });
    expect(busy).toBeDisabled();
    held.release({ status: 503, body: { message: 'Busy' } });
    const again = await screen.findByRole('button', { name: 'Submit Order' });
    expect(again).toBeEnabled();
    api.ok(postOrder, placed);
    await user.click(again);
    await waitFor(() => expect(api.sent(postOrder)).toHaveLength(2));
    const [first, second] = api.sent(postOrder);
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
  });

  it("Reorder fills the form from router state (only known fields)", () => {
    setup({ state: { reorder: { cardType: 'color', cardStyle: 'Mirror', quantity: 250, deliveryOption: 'pickup-nyc', evil: 'x' } } });
    expect(screen.getByRole('radio', { name: /Color Metal/ })).toBeChecked();
    expect(screen.getByLabelText('Card style')).toHaveValue('Mirror');
    expect(screen.getByLabelText('Quantity')).toHaveValue(250);
    expect(within(screen.getByRole('form', { name: 'Place your order' })).getByRole('radio', { name: /Pickup NYC/ })).toBeChecked();
  });
});
