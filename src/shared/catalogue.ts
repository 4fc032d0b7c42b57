/**
 * The one catalogue: card types, styles, delivery options, prices and limits (decisions.md,
 * "One catalogue, one price"). Every screen, call, checkout attribute, e-mail and the admin revenue
 * read it. Prices are kept in cents to avoid float drift.
 */

export const CARD_TYPES = [
  { id: 'standard', label: 'Standard Metal', priceCents: 400, description: 'Premium black metal' },
  { id: 'color', label: 'Color Metal', priceCents: 500, description: 'Full colour print on metal' },
  { id: 'black_anodized', label: 'Black Anodized', priceCents: 700, description: 'Deep black anodized finish' },
  { id: 'luxury_titanium', label: 'Luxury Titanium', priceCents: 900, description: 'Solid titanium, our finest card' },
] as const;
export type CardTypeId = (typeof CARD_TYPES)[number]['id'];
export const CARD_TYPE_IDS = CARD_TYPES.map((c) => c.id) as [CardTypeId, ...CardTypeId[]];

/**
 * How each card type is made (issue 22, decision 22-01): the processes its print files carry, each on
 * its own PDF layer. `engrave` is the spot colour "Engrave" (laser), `cmyk` the UV colour print.
 */
export const PRINT_PROCESSES = ['engrave', 'cmyk'] as const;
export type PrintProcess = (typeof PRINT_PROCESSES)[number];
export const CARD_TYPE_PROCESSES: Record<CardTypeId, readonly PrintProcess[]> = {
  standard: ['engrave'],
  color: ['cmyk'],
  black_anodized: ['engrave'],
  luxury_titanium: ['engrave'],
};
export const DEFAULT_CARD_TYPE: CardTypeId = 'standard';

export const CARD_STYLES = ['Matte', 'Brushed', 'Mirror', 'Custom'] as const;
export type CardStyle = (typeof CARD_STYLES)[number];

export const DELIVERY_OPTIONS = [
  { id: 'standard', label: 'Standard', feeCents: 0, description: 'Free, 5-7 business days' },
  { id: 'rush-24h', label: 'Expedited 24h', feeCents: 3000, description: 'Produced and shipped within 24 hours' },
  { id: 'same-day-manhattan', label: 'Same-day Manhattan courier', feeCents: 5000, description: 'Courier delivery in Manhattan the same day' },
  { id: 'pickup-nyc', label: 'Pickup NYC', feeCents: 0, description: 'Free pickup at our New York studio' },
] as const;
export type DeliveryOptionId = (typeof DELIVERY_OPTIONS)[number]['id'];
export const DELIVERY_OPTION_IDS = DELIVERY_OPTIONS.map((d) => d.id) as [DeliveryOptionId, ...DeliveryOptionId[]];

export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 5000;
export const QUANTITY_DEFAULT = 100;
export const VOLUME_DISCOUNT_FROM = 100;
export const MAX_PROFILE_LINKS = 3;
export const PROFILE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const AI_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const CURRENCY = 'USD';

export const TEMPLATE_IDS = { minimal: 15, classic: 16, simple: 17, modern: 18 } as const;
export const DEFAULT_TEMPLATE_ID = 17;

export function cardType(id: string) {
  return CARD_TYPES.find((c) => c.id === id);
}
export function deliveryOption(id: string) {
  return DELIVERY_OPTIONS.find((d) => d.id === id);
}

export interface PriceQuote {
  cardType: CardTypeId;
  cardTypeLabel: string;
  deliveryOption: DeliveryOptionId;
  deliveryLabel: string;
  quantity: number;
  unitPriceCents: number;
  deliveryFeeCents: number;
  subtotalCents: number;
  totalCents: number;
  currency: typeof CURRENCY;
  volumeDiscountEligible: boolean;
}

/** Total = card price x quantity + delivery fee. Throws on an unknown type/option or bad quantity. */
export function priceOrder(input: { cardType: string; deliveryOption: string; quantity: number }): PriceQuote {
  const ct = cardType(input.cardType);
  const d = deliveryOption(input.deliveryOption);
  if (!ct) throw new Error(`Unknown card type: ${input.cardType}`);
  if (!d) throw new Error(`Unknown delivery option: ${input.deliveryOption}`);
  const q = input.quantity;
  if (!Number.isInteger(q) || q < QUANTITY_MIN || q > QUANTITY_MAX) throw new Error(`Invalid quantity: ${q}`);
  const subtotalCents = ct.priceCents * q;
  return {
    cardType: ct.id,
    cardTypeLabel: ct.label,
    deliveryOption: d.id,
    deliveryLabel: d.label,
    quantity: q,
    unitPriceCents: ct.priceCents,
    deliveryFeeCents: d.feeCents,
    subtotalCents,
    totalCents: subtotalCents + d.feeCents,
    currency: CURRENCY,
    volumeDiscountEligible: q >= VOLUME_DISCOUNT_FROM,
  };
}

/** "$1,280.00" (plain string work: Intl formatting is slow on the order path) */
export function formatUsd(cents: number): string {
  const abs = Math.round(Math.abs(cents));
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Issue 22 appended the floor's steps (the first six keep their order, the spec's contract):
 * quality-check (after in-production) and ready-for-pickup (Pickup NYC, instead of shipped);
 * `completed` reads Delivered or Collected by delivery option (orderStepLabel).
 */
export const ORDER_STATUSES = ['pending', 'processing', 'in-production', 'shipped', 'completed', 'cancelled', 'quality-check', 'ready-for-pickup'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const BUSINESS = {
  name: 'Metal Cards NYC',
  tagline: 'Premium Business Cards',
  footerTagline: 'The premium digital upgrade for your metal business cards.',
  city: 'New York, NY',
  email: 'hello@metalcards.nyc',
  phone: '+1 (212) 555-0147',
  phoneHref: 'tel:+12125550147',
  hours: [
    { days: 'Mon-Fri', time: '9:00-6:00 EST' },
    { days: 'Sat', time: '10:00-4:00 EST' },
    { days: 'Sun', time: 'Closed' },
  ],
  claims: {
    satisfaction: '98%',
    averageDelivery: '24-48 hour',
    productionDays: '5-7 business days',
    supportReply: 'within 24 hours',
    volumeDiscountFrom: 100,
    maxLinks: 3,
  },
} as const;

/** Customer-facing names of the order statuses (badge colours live in the web client). */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  processing: 'Processing',
  'in-production': 'In production',
  'quality-check': 'Quality check',
  shipped: 'Shipped',
  'ready-for-pickup': 'Ready for pickup',
  completed: 'Completed',
  cancelled: 'Cancelled',
};
export function orderStatusLabel(status: string): string {
  return (ORDER_STATUS_LABELS as Record<string, string>)[status] ?? status;
}
/** The customer's name of a step: `completed` is "Collected" for a pickup order and "Delivered" otherwise (issue 22). */
export function orderStepLabel(status: string, deliveryOptionId: string): string {
  if (status === 'completed') return deliveryOptionId === 'pickup-nyc' ? 'Collected' : 'Delivered';
  return orderStatusLabel(status);
}

/** Order form limits. */
export const SPECIAL_REQUESTS_MAX = 2000;
/** One optional artwork file on the order form. */
export const ARTWORK_MAX_BYTES = 10 * 1024 * 1024;
export const ARTWORK_EXTENSIONS = ['png', 'jpg', 'jpeg', 'webp', 'svg', 'pdf'] as const;
export const ARTWORK_ACCEPT = '.png,.jpg,.jpeg,.webp,.svg,.pdf,image/png,image/jpeg,image/webp,image/svg+xml,application/pdf';
/** The order form's refusal of another type (server and browser). A PDF's first page is used, at 300 DPI (decision 37-05). */
export const ARTWORK_TYPE_MESSAGE = 'Artwork must be a PNG, JPG, WEBP, SVG or PDF file';
/** What the logo and banner-logo inputs take (profile, team brand): a PDF's first page at 300 DPI. */
export const LOGO_ACCEPT = 'image/png,image/jpeg,image/webp,image/svg+xml,application/pdf,.pdf';
export const LOGO_TYPE_MESSAGE = 'Please upload a PNG, JPG, SVG or PDF image';

/** Reference prices of the three online-store products on the store setup checklist (/shopify-admin). */
export const STORE_REFERENCE_PRODUCTS = [
  { title: 'Standard Metal Cards (pack)', price: '89.99' },
  { title: 'Premium Metal Cards (pack)', price: '119.99' },
  { title: 'Luxury Metal Cards (pack)', price: '149.99' },
] as const;
