import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { getCheckoutTerms } from '#shared/contracts/orders';
import type { CheckoutTerms } from '#shared/schemas/orders';
import { ADDRESS_MESSAGES, ORDER_MESSAGES } from '#shared/schemas/orders';
import { INVOICE_NOTE, TAX_NOTE } from '#shared/orders/checkout-terms';
import { mockApi, renderWithProviders } from '#web/test/render';
import { DesignCheckout } from './design-checkout';

const STORE_TERMS: CheckoutTerms = { paymentMode: 'store', paymentNote: 'After you confirm, we e-mail you a secure checkout link to pay online', taxNote: TAX_NOTE };

function setup({ pending = false, terms = STORE_TERMS }: { pending?: boolean; terms?: CheckoutTerms } = {}) {
  const api = mockApi().ok(getCheckoutTerms, terms);
  const onConfirm = vi.fn(async () => undefined);
  const onBack = vi.fn();
  const props = { cardType: 'color' as const, templateName: 'Aurora', pending, onBack, onConfirm };
  const view = renderWithProviders(<DesignCheckout {...props} />, { route: '/design' });
  return { api, onConfirm, onBack, props, ...view };
}

describe('<DesignCheckout>', () => {
  it("asks the shop's payment terms and shows them under the choices", async () => {
    const { api } = setup();
    expect(await screen.findByText(/After you confirm, we e-mail you a secure checkout link to pay online\./)).toBeInTheDocument();
    expect(api.sent(getCheckoutTerms)).toHaveLength(1);
    expect(api.sent(getCheckoutTerms)[0]!.url).toBe('/api/checkout/terms');
  });

  it('standard delivery (the default) needs an address: its messages, nothing confirmed', async () => {
    const { onConfirm, user } = setup();
    expect(screen.getByLabelText('Delivery')).toHaveValue('standard');
    expect(screen.getByRole('group', { name: 'Delivery address' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Review order' }));
    expect(await screen.findByText(ADDRESS_MESSAGES.name)).toBeInTheDocument();
    expect(screen.getByText(ADDRESS_MESSAGES.line1)).toBeInTheDocument();
    expect(screen.getByText(ADDRESS_MESSAGES.postalCode)).toBeInTheDocument();
    expect(screen.queryByTestId('checkout-summary')).not.toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('a quantity out of bounds is refused with the order form messages', async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByLabelText('Delivery'), 'pickup-nyc');
    const qty = screen.getByLabelText('Quantity');
    await user.clear(qty);
    await user.type(qty, '0');
    await user.click(screen.getByRole('button', { name: 'Review order' }));
    expect(await screen.findByText(ORDER_MESSAGES.quantityMin)).toBeInTheDocument();
    expect(qty).toHaveAttribute('aria-invalid', 'true');
  });

  it('pickup: the summary lists items, price, total and payment; Confirm hands the choice over once', async () => {
    const { onConfirm, user } = setup();
    await user.selectOptions(screen.getByLabelText('Delivery'), 'pickup-nyc');
    expect(screen.getByText('Pickup at our New York studio: no delivery address needed.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Card style'), 'Brushed');
    const qty = screen.getByLabelText('Quantity');
    await user.clear(qty);
    await user.type(qty, '250');
    await user.click(screen.getByRole('button', { name: 'Review order' }));

    const summary = await screen.findByTestId('checkout-summary');
    expect(within(summary).getByText('250 metal business cards, your design on the Aurora template')).toBeInTheDocument();
    expect(within(summary).getByText('Color Metal (Brushed) at $5.00 per card')).toBeInTheDocument();
    expect(within(summary).getByText('At our New York studio (no shipping)')).toBeInTheDocument();
    expect(within(summary).getByTestId('checkout-total')).toHaveTextContent('$1,250.00');
    expect(within(summary).getByTestId('checkout-payment')).toHaveTextContent('After you confirm, we e-mail you a secure checkout link to pay online.');
    expect(onConfirm).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Confirm order' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onConfirm).toHaveBeenCalledWith({ quantity: 250, deliveryOption: 'pickup-nyc', cardStyle: 'Brushed' });
  });

  it('a shipped order carries the typed address to the summary and to Confirm', async () => {
    const { onConfirm, user } = setup({ terms: { paymentMode: 'invoice', paymentNote: INVOICE_NOTE, taxNote: TAX_NOTE } });
    await user.type(screen.getByLabelText('Recipient name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Street address'), '1 Main St');
    await user.type(screen.getByLabelText('City'), 'New York');
    await user.type(screen.getByLabelText('State'), 'NY');
    await user.type(screen.getByLabelText('ZIP / postal code'), '10001');
    await user.click(screen.getByRole('button', { name: 'Review order' }));
    const address = await screen.findByTestId('checkout-address');
    expect(address).toHaveTextContent('Ada Lovelace');
    expect(address).toHaveTextContent('1 Main St');
    expect(screen.getByTestId('checkout-payment')).toHaveTextContent(`${INVOICE_NOTE}.`);
    await user.click(screen.getByRole('button', { name: 'Confirm order' }));
    expect(onConfirm).toHaveBeenCalledWith(
      expect.objectContaining({ deliveryOption: 'standard', shippingAddress: expect.objectContaining({ name: 'Ada Lovelace', line1: '1 Main St', city: 'New York', state: 'NY', postalCode: '10001', country: 'US' }) }),
    );
  });

  it('Edit order goes back to the filled form; Back to the design calls onBack', async () => {
    const { onBack, user } = setup();
    await user.selectOptions(screen.getByLabelText('Delivery'), 'pickup-nyc');
    await user.click(screen.getByRole('button', { name: 'Review order' }));
    await user.click(await screen.findByRole('button', { name: 'Edit order' }));
    await waitFor(() => expect(screen.getByLabelText('Delivery')).toHaveValue('pickup-nyc'));
    await user.click(screen.getByRole('button', { name: 'Back to the design' }));
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  it('while the order is placed, both summary buttons are disabled and say so', async () => {
    const api = mockApi().ok(getCheckoutTerms, STORE_TERMS);
    const onConfirm = vi.fn(async () => undefined);
    const props = { cardType: 'standard' as const, templateName: 'Aurora', onBack: vi.fn(), onConfirm };
    const { user, rerender } = renderWithProviders(<DesignCheckout {...props} pending={false} />);
    await user.selectOptions(screen.getByLabelText('Delivery'), 'pickup-nyc');
    await user.click(screen.getByRole('button', { name: 'Review order' }));
    await screen.findByTestId('checkout-summary');
    expect(screen.getByRole('button', { name: 'Confirm order' })).toBeEnabled();
    rerender(<DesignCheckout {...props} pending />);
    expect(screen.getByRole('button', { name: /Placing order\.\.\./ })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Edit order' })).toBeDisabled();
    expect(api.unanswered).toEqual([]);
  });
});
