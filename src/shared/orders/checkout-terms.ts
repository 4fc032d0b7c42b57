/**
 * What a checkout says about money (issue 35), zod-free so pages can show it without the schemas.
 * Prices are quoted before tax; without the online store the order is invoiced after the proof.
 */
export const TAX_NOTE = 'plus sales tax where applicable';
export const INVOICE_NOTE = 'No charge now: we send an invoice once you approve your proof';
const STORE_NOTE = 'After you confirm, we e-mail you a secure checkout link to pay online';

type PaymentMode = 'store' | 'invoice';

/** The payment line of a checkout summary for the shop's payment mode. */
export const paymentNote = (mode: PaymentMode) => (mode === 'invoice' ? INVOICE_NOTE : STORE_NOTE);
