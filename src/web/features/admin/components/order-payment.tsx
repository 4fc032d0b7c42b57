import { useState, type FormEvent } from 'react';
import { AdminOrderPaymentCreateBody, PAYMENT_METHODS, type AdminOrderDetail, type PaymentStatus } from '#shared/schemas/admin';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { FormField, Input, Select } from '#web/components/ui/input';
import { ApiError } from '#web/lib/api';
import { useRecordPayment } from '#web/features/admin/api';
import { formatCents, formatDateTime } from '#web/features/admin/format';

/** Issue 35 (decision 35-01): the order's payment state and, for staff, a payment or refund to record. */

const STATUS: Record<PaymentStatus, { label: string; tone: 'yellow' | 'green' | 'blue' | 'red' }> = {
  unpaid: { label: 'Unpaid', tone: 'yellow' },
  paid: { label: 'Paid', tone: 'green' },
  partially_refunded: { label: 'Partially refunded', tone: 'blue' },
  refunded: { label: 'Refunded', tone: 'red' },
};

const METHOD_LABELS: Record<string, string> = { bank_transfer: 'Bank transfer', card: 'Card', check: 'Check', cash: 'Cash', other: 'Other' };
const methodLabel = (m: string) => METHOD_LABELS[m] ?? m;

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium break-all">{value}</dd>
    </div>
  );
}

/** "12.50" -> 1250; anything else -> NaN (the contract then names the field). */
function dollarsToCents(text: string): number {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '');
  return /^\d+(\.\d{1,2})?$/.test(t) ? Math.round(Number(t) * 100) : Number.NaN;
}

function RecordPaymentForm({ order }: { order: AdminOrderDetail }) {
  const record = useRecordPayment();
  const [kind, setKind] = useState<'payment' | 'refund'>('payment');
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<string>('bank_transfer');
  const [reference, setReference] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const id = (f: string) => `payment-${order.id}-${f}`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // the same contract the server validates with: its messages, before a request is sent
    const parsed = AdminOrderPaymentCreateBody.safeParse({ kind, amountCents: dollarsToCents(amount), method, reference });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      if (found.amountCents && Number.isNaN(dollarsToCents(amount))) found.amountCents = 'Enter an amount in dollars, e.g. 1780.00';
      setErrors(found);
      return;
    }
    setErrors({});
    record.mutate(
      { id: order.id, body: parsed.data },
      {
        onSuccess: () => {
          setAmount('');
          setReference('');
        },
        onError: (err) => {
          if (err instanceof ApiError && err.body?.errors) setErrors(err.body.errors);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="mt-3 space-y-3 border-t border-border pt-3" aria-label="Record payment" data-testid="record-payment">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <FormField id={id('kind')} label="Kind">
          <Select id={id('kind')} value={kind} onChange={(e) => setKind(e.target.value === 'refund' ? 'refund' : 'payment')}>
            <option value="payment">Payment received</option>
            <option value="refund">Refund</option>
          </Select>
        </FormField>
        <FormField id={id('amount')} label="Amount (USD)" error={errors.amountCents} required>
          <Input
            id={id('amount')}
            inputMode="decimal"
            placeholder={(Math.max(order.payment.balanceCents, 0) / 100).toFixed(2)}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={!!errors.amountCents}
            aria-describedby={errors.amountCents ? `${id('amount')}-error` : undefined}
          />
        </FormField>
        <FormField id={id('method')} label="Method" error={errors.method} required>
          <Select id={id('method')} value={method} onChange={(e) => setMethod(e.target.value)}>
            {PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {methodLabel(m)}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id={id('reference')} label="Reference" error={errors.reference} hint="Invoice, transfer or receipt number" required>
          <Input
            id={id('reference')}
            value={reference}
            maxLength={200}
            onChange={(e) => setReference(e.target.value)}
            aria-invalid={!!errors.reference}
            aria-describedby={errors.reference ? `${id('reference')}-error` : `${id('reference')}-hint`}
          />
        </FormField>
      </div>
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={record.isPending}>
          {record.isPending ? 'Recording...' : kind === 'refund' ? 'Record refund' : 'Record payment'}
        </Button>
      </div>
    </form>
  );
}

/** The Payment section of the staff order detail. */
export function OrderPaymentPanel({ order }: { order: AdminOrderDetail }) {
  const p = order.payment;
  const s = STATUS[p.status];
  return (
    <div data-testid="order-payment">
      <dl>
        <Row
          label="Payment"
          value={
            <Badge variant={s.tone} data-payment-status={p.status}>
              {s.label}
            </Badge>
          }
        />
        <Row label="Paid" value={formatCents(p.paidCents)} />
        {p.refundedCents > 0 ? <Row label="Refunded" value={formatCents(p.refundedCents)} /> : null}
        {p.status === 'unpaid' ? <Row label="Still to pay" value={formatCents(p.balanceCents)} /> : null}
        {p.method ? <Row label="Method" value={methodLabel(p.method)} /> : null}
        {p.reference ? <Row label="Reference" value={p.reference} /> : null}
        {p.store ? (
          <>
            <Row label="Store order" value={p.store.orderName ?? p.store.orderId} />
            {p.store.taxCents !== null ? <Row label="Tax collected" value={formatCents(p.store.taxCents)} /> : null}
            {p.store.shippingAddress ? (
              <Row
                label="Ship to (store)"
                value={['name', 'address1', 'address2', 'city', 'province_code', 'zip', 'country_code']
                  .map((k) => p.store!.shippingAddress![k])
                  .filter((v): v is string => typeof v === 'string' && v !== '')
                  .join(', ')}
              />
            ) : null}
            {p.store.cancelledAt ? <Row label="Cancelled at the store" value={formatDateTime(p.store.cancelledAt)} /> : null}
          </>
        ) : null}
      </dl>
      <p className="mt-1 text-xs text-muted-foreground">
        {p.mode === 'store' ? 'Paid through the online store checkout; its webhooks record payments and refunds.' : 'Invoice mode: no charge at checkout; record the payment when the invoice is paid.'}
      </p>
      {p.entries.length ? (
        <ol className="mt-2 space-y-1 text-sm" aria-label="Payments and refunds">
          {p.entries.map((e) => (
            <li key={e.id}>
              <span className="font-medium">
                {e.kind === 'refund' ? 'Refund' : 'Payment'} {formatCents(e.amountCents)}
              </span>
              <span className="text-muted-foreground">
                {' '}
                · {methodLabel(e.method)}
                {e.reference ? ` · ${e.reference}` : ''} · {e.recordedBy} · {formatDateTime(e.createdAt)}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      <RecordPaymentForm order={order} />
    </div>
  );
}
