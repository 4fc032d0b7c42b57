// A staff order detail as GET /api/admin/orders/{id} answers it (the contract's shape), for the
// admin components' tests: the workflow facts decide which status moves are offered.
import type { AdminOrderDetail } from '#shared/schemas/admin';

type Facts = AdminOrderDetail['workflow']['facts'];
const AT = '2026-11-20T10:00:00.000Z';

/** A staff order detail as GET /api/admin/orders/{id} answers it, with the workflow facts given. */
export function adminOrder(facts: Partial<Facts> = {}, proof: AdminOrderDetail['workflow']['proof'] = { state: 'approved', message: null }): AdminOrderDetail {
  const f: Facts = { status: 'pending', deliveryOption: 'standard', designApproved: true, proofApproved: true, hasAddress: true, paid: true, hasTracking: false, ...facts };
  return {
    id: 17,
    status: f.status,
    customerName: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: null,
    company: null,
    companyName: null,
    position: null,
    jobTitle: null,
    address: null,
    quantity: 100,
    cardType: 'standard',
    cardTypeLabel: 'Standard Metal',
    cardStyle: 'Matte',
    deliveryOption: f.deliveryOption,
    deliveryLabel: 'Standard',
    specialRequests: null,
    amount: 400,
    totalCents: 40000,
    currency: 'USD',
    templateId: 1,
    logoUrl: null,
    cardId: 3,
    previewUrl: null,
    source: 'web',
    userId: null,
    createdAt: AT,
    updatedAt: AT,
    waitsForProfile: false,
    internalNotes: '',
    unitPriceCents: 400,
    deliveryFeeCents: 0,
    history: [],
    notes: [],
    design: null,
    shipment: null,
    shippingAddress: null,
    payment: { status: f.paid ? 'paid' : 'unpaid', paidCents: f.paid ? 40000 : 0, refundedCents: 0, balanceCents: f.paid ? 0 : 40000, currency: 'USD', method: null, reference: null, mode: 'invoice', store: null, entries: [] },
    workflow: { facts: f, proof },
  };
}
