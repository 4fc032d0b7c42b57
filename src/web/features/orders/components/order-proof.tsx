import { useState } from 'react';
import { CheckCircle2, MessageSquareWarning } from 'lucide-react';
import type { OrderStatusView } from '#shared/schemas/orders';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader } from '#web/components/ui/card';
import { Label, Textarea } from '#web/components/ui/input';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { useAnswerProof } from '#web/features/orders/api';

const MESSAGE_MAX = 2000;

/**
 * The proof of the approved design (issue 35): made from the print file itself. While it waits for
 * the customer, they approve it (production can start) or say what to change (the design goes
 * back to them with their message).
 */
export function OrderProof({ order, token }: { order: OrderStatusView; token: string }) {
  const answer = useAnswerProof(token);
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState('');
  const { proof } = order;
  if (proof.state === 'none') return null;
  const server = fieldErrors(answer.error);
  const tooLong = message.length > MESSAGE_MAX;
  return (
    <Card data-testid="order-proof" data-proof={proof.state}>
      <CardHeader>
        <h2 className="text-lg font-semibold">Your proof</h2>
        <p className="text-sm text-muted-foreground">
          {proof.state === 'awaiting'
            ? 'Made from the print file itself: this is exactly what we will print. Check every detail, then approve it or tell us what to change. We start production only after you approve it.'
            : proof.state === 'approved'
              ? 'You approved this proof. Production starts once everything else is ready.'
              : 'You asked for changes. Edit your design and submit it again; we will send a new proof.'}
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        {proof.images.length ? (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {proof.images.map((img) => (
              <figure key={`${img.cardId}-${img.side}`}>
                <img src={img.url} alt={`Proof, ${img.side} of the card`} loading="lazy" className="w-full rounded-md border border-border bg-white object-contain" />
                <figcaption className="mt-1 text-xs text-muted-foreground">{img.side === 'front' ? 'Front' : 'Back'}</figcaption>
              </figure>
            ))}
          </div>
        ) : null}
        {proof.state === 'changes' && proof.message ? (
          <p className="whitespace-pre-wrap rounded-md bg-muted p-3 text-sm">
            <span className="font-medium">Your message: </span>
            {proof.message}
          </p>
        ) : null}
        {proof.state === 'approved' ? (
          <p className="flex items-center gap-2 text-sm font-medium text-green-600 dark:text-green-400">
            <CheckCircle2 className="size-4" aria-hidden="true" /> Proof approved
          </p>
        ) : null}
        {proof.state === 'awaiting' ? (
          <div className="space-y-3">
            {asking ? (
              <form
                className="space-y-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  if (!message.trim() || tooLong) return;
                  answer.mutate({ decision: 'changes', message: message.trim() });
                }}
              >
                <Label htmlFor="proof-changes">What should we change?</Label>
                <Textarea
                  id="proof-changes"
                  value={message}
                  onChange={(e) => setMessage(e.target.value)}
                  aria-invalid={tooLong || !!server.message}
                  aria-describedby="proof-changes-help"
                />
                <p id="proof-changes-help" className={tooLong || server.message ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
                  {server.message ?? `${message.length} / ${MESSAGE_MAX}`}
                </p>
                <div className="flex flex-wrap gap-2">
                  <Button type="submit" variant="outline" disabled={answer.isPending || !message.trim() || tooLong}>
                    <MessageSquareWarning aria-hidden="true" /> Send my changes
                  </Button>
                  <Button type="button" variant="ghost" onClick={() => setAsking(false)}>
                    Back
                  </Button>
                </div>
              </form>
            ) : (
              <div className="flex flex-wrap gap-2">
                <Button variant="gold" disabled={answer.isPending} onClick={() => answer.mutate({ decision: 'approve' })}>
                  <CheckCircle2 aria-hidden="true" /> {answer.isPending ? 'Sending...' : 'Approve proof'}
                </Button>
                <Button variant="outline" disabled={answer.isPending} onClick={() => setAsking(true)}>
                  Request changes
                </Button>
              </div>
            )}
            {answer.error && !server.message ? (
              <p role="alert" className="text-sm text-destructive">
                {errorMessage(answer.error)}
              </p>
            ) : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Invoice mode (no online store), until the order is paid: "No charge now: we send an invoice once you approve your proof." */
export function OrderPaymentNote({ order }: { order: OrderStatusView }) {
  if (!order.paymentNote) return null;
  return (
    <p className="mt-3 rounded-md bg-muted p-3 text-sm" data-testid="order-payment-note">
      {order.paymentNote}.
    </p>
  );
}
