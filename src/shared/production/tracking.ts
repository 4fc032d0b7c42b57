/**
 * Carriers, tracking numbers and tracking links (issue 22). Pure code: the shipment form checks a
 * number as you type and the server checks it again before anything is written.
 */

export const CARRIERS = [
  { id: 'ups', label: 'UPS' },
  { id: 'usps', label: 'USPS' },
  { id: 'fedex', label: 'FedEx' },
] as const;
export type CarrierId = (typeof CARRIERS)[number]['id'];
export const CARRIER_IDS = CARRIERS.map((c) => c.id) as [CarrierId, ...CarrierId[]];

export const TRACKING_MESSAGES = {
  carrier: 'Choose UPS, USPS or FedEx',
  required: 'Enter the tracking number',
  ups: 'A UPS tracking number is 1Z followed by 16 letters or digits',
  upsCheckDigit: 'This UPS tracking number does not check out (last digit); please re-type it',
  usps: 'A USPS tracking number is 20-22 digits, or 13 characters like EC123456789US',
  fedex: 'A FedEx tracking number is 12, 15 or 20 digits',
} as const;

export function carrierLabel(id: string): string {
  return CARRIERS.find((c) => c.id === id)?.label ?? id;
}

/** Spaces and dashes out, upper case: how the number is stored and linked. */
export function normalizeTrackingNumber(raw: string): string {
  return raw.replace(/[\s-]+/g, '').toUpperCase();
}

/** UPS check digit of the 15 characters after "1Z": letters count (code - 63) mod 10; odd places once, even places twice. */
export function upsCheckDigit(body15: string): number {
  let sum = 0;
  for (let i = 0; i < body15.length; i++) {
    const c = body15.charCodeAt(i);
    const v = c >= 48 && c <= 57 ? c - 48 : (c - 63) % 10;
    sum += i % 2 === 0 ? v : 2 * v;
  }
  return (10 - (sum % 10)) % 10;
}

/** null when `number` (normalized) is a valid number of `carrier`, else the field's message. */
export function trackingNumberError(carrier: string, number: string): string | null {
  const n = normalizeTrackingNumber(number);
  if (!n) return TRACKING_MESSAGES.required;
  if (carrier === 'ups') {
    if (!/^1Z[0-9A-Z]{16}$/.test(n)) return TRACKING_MESSAGES.ups;
    return upsCheckDigit(n.slice(2, 17)) === Number(n[17]) ? null : TRACKING_MESSAGES.upsCheckDigit;
  }
  if (carrier === 'usps') return /^\d{20,22}$/.test(n) || /^[A-Z]{2}\d{9}[A-Z]{2}$/.test(n) ? null : TRACKING_MESSAGES.usps;
  if (carrier === 'fedex') return /^(\d{12}|\d{15}|\d{20})$/.test(n) ? null : TRACKING_MESSAGES.fedex;
  return TRACKING_MESSAGES.carrier;
}

/** The carrier's public tracking page for a (valid) number. */
export function trackingUrl(carrier: CarrierId, number: string): string {
  const n = encodeURIComponent(normalizeTrackingNumber(number));
  if (carrier === 'ups') return `https://www.ups.com/track?tracknum=${n}`;
  if (carrier === 'usps') return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`;
  return `https://www.fedex.com/fedextrack/?trknbr=${n}`;
}

/** Pickup codes: 6 characters without look-alikes (no 0/O, 1/I/L). */
export const PICKUP_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PICKUP_CODE_LENGTH = 6;
