import { useState } from 'react';
import { CheckCircle2, MessageSquareWarning } from 'lucide-react';
import type { OrderStatusView } from '#shared/schemas/orders';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader } from '#web/components/ui/card';
import { Label, Textarea } from '#web/components/ui/input';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { useAnswerProof } from '#web/features/orders/api';

const MESSAGE_MAX = 2000;

const CARD_STATUS_LABELS: Record<string, string> = { pending: 'In review', approved: 'Approved', rejected: 'Needs changes' };

/**
 * The proof of the approved design (issue 35): made from the print file itself. While it waits for
 * the customer, they approve it (production can start) or say what to change (the design goes
 * back to them with their message). An order of several cards (a team order) names each card, and
 * the customer picks the cards that need changes: only those go back (decision 35-06).
 */
export function OrderProof({ order, token }: { order: OrderStatusView; token: string }) {
  const answer = useAnswerProof(token);
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState('');
  const [picked, setPicked] = useState<number[]>([]);
  const { proof } = order;
  if (proof.state === 'none') return null;
  const server = fieldErrors(answer.error);
  const tooLong = message.length > MESSAGE_MAX;
  const multi = proof.cards.length > 1;
  const nameOf = new Map(proof.cards.map((c) => [c.cardId, c.name]));
  // the cards the customer can send back: those the proof shows
  const pickable = proof.cards.filter((c) => proof.images.some((i) => i.cardId === c.cardId));
  const noneChosen = multi && picked.length === 0;
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
            {proof.images.map((img) => {
              const name = multi ? nameOf.get(img.cardId) : undefined;
              return (
                <figure key={`${img.cardId}-${img.side}`}>
                  <img src={img.url} alt={name ? `Proof, ${img.side} of ${name}'s card` : `Proof, ${img.side} of the card`} loading="lazy" className="w-full rounded-md border border-border bg-white object-contain" />
                  <figcaption className="mt-1 text-xs text-muted-foreground">
                    {img.side === 'front' ? 'Front' : 'Back'}
                    {name ? `, ${name}` : ''}
                  </figcaption>
                </figure>
              );
            })}
          </div>
        ) : null}
        {proof.state === 'changes' && multi ? (
          <ul className="space-y-1 text-sm" data-testid="proof-cards">
            {proof.cards.map((c) => (
              <li key={c.cardId} data-card-status={c.status}>
                <span className="font-medium">{c.name}</span>: {CARD_STATUS_LABELS[c.status] ?? c.status}
              </li>
            ))}
          </ul>
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
                  if (!message.trim() || tooLong || noneChosen) return;
                  answer.mutate({ decision: 'changes', message: message.trim(), ...(multi ? { cardIds: picked } : {}) });
                }}
              >
                {multi ? (
                  <fieldset className="space-y-2" aria-describedby="proof-cards-help">
                    <legend className="text-sm font-medium">Which cards need changes?</legend>
                    <p id="proof-cards-help" className={server.cardIds ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
                      {server.cardIds ?? 'Only the cards you choose go back for changes; the others keep their approval.'}
                    </p>
                    {pickable.map((c) => (
                      <div key={c.cardId} className="flex items-center gap-2">
                        <input
                          type="checkbox"
                          id={`proof-card-${c.cardId}`}
                          className="size-4 accent-primary"
                          checked={picked.includes(c.cardId)}
                          onChange={(e) => setPicked(e.target.checked ? [...picked, c.cardId] : picked.filter((id) => id !== c.cardId))}
                        />
                        <label htmlFor={`proof-card-${c.cardId}`} className="text-sm">
                          {c.name}
                        </label>
                      </div>
                    ))}
                  </fieldset>
                ) : null}
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
                  <Button type="submit" variant="outline" disabled={answer.isPending || !message.trim() || tooLong || noneChosen}>
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
