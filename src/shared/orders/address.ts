import type { ShippingAddressData, ShippingAddressView } from '#shared/schemas/orders';

/** Without zod: the order success and status pages show an address and load no validation library. */

/** The address as lines: "Ada Lovelace", "1 Main St", "Apt 2", "Brooklyn, NY 11201", ("United Kingdom" code when not US). */
export function addressLines(a: ShippingAddressView | ShippingAddressData): string[] {
  const place = [a.city, [a.state, a.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [a.name, a.line1, a.line2 ?? '', place, a.country === 'US' ? '' : a.country].filter(Boolean);
}
