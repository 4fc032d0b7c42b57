import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Check, Wand2, X } from 'lucide-react';
import { CARD_TYPES, DEFAULT_CARD_TYPE, type CardTypeId } from '#shared/catalogue';
import { normalizeHex } from '#shared/ai/color';
import { planColour, type ApplyPlan } from '#shared/ai/metal-fit';
import type { AiApplyRequest } from '#shared/schemas/ai';
import { Button } from '#web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog';
import { Label, Select } from '#web/components/ui/input';
import { toast } from '#web/lib/toast';
import { aiErrorText, useApplySuggestion, useCurrentDesign } from '#web/features/ai/api';

export interface ApplyCandidate {
  hex: string;
  name: string;
}

/**
 * "Apply to my card" (issue 37, decision 37-07): each suggested colour marked as fitting the card's
 * metal or not (and why); only a fitting colour is applied. A colour only Color Metal can print is
 * offered with a confirm that names the price change; nothing switches the metal without it. The
 * server checks the same (POST /api/ai/apply) and answers the designer's address.
 */
export function ApplyToCard({ colours, testId }: { colours: ApplyCandidate[]; testId: string }) {
  const current = useCurrentDesign();
  const [chosenMetal, setMetal] = useState<CardTypeId | null>(null);
  const metal = chosenMetal ?? current.data?.cardType ?? DEFAULT_CARD_TYPE;
  const plans = colours.map((c) => ({ ...c, hex: normalizeHex(c.hex), plan: planColour(c.hex, metal) }));
  const [picked, setPicked] = useState<string | null>(null);
  const selected = plans.find((p) => p.hex === picked) ?? plans.find((p) => p.plan.fitsHere.fits) ?? plans[0];
  const [confirming, setConfirming] = useState(false);
  const apply = useApplySuggestion();
  const navigate = useNavigate();
  const metalLabel = CARD_TYPES.find((c) => c.id === metal)!.label;

  const run = (body: AiApplyRequest) =>
    apply.mutate(body, {
      onSuccess: (r) => {
        setConfirming(false);
        if (r.accent) navigate(r.designPath);
        else toast({ title: 'Not applied', description: r.notApplied[0]?.reason ?? 'This colour does not fit your card.', variant: 'destructive' });
      },
      onError: (e) => toast({ title: 'Could not apply', description: aiErrorText(e), variant: 'destructive' }),
    });

  if (!selected) return null;
  const switchTo = selected.plan.switchTo;
  return (
    <div className="mt-4 space-y-3 rounded-lg border border-border p-4" data-testid={testId}>
      <div className="flex flex-wrap items-end gap-3">
        <div className="space-y-1">
          <Label htmlFor={`${testId}-metal`}>Your card&apos;s metal</Label>
          <Select id={`${testId}-metal`} value={metal} onChange={(e) => setMetal(e.target.value as CardTypeId)}>
            {CARD_TYPES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </Select>
        </div>
        <p className="text-xs text-muted-foreground">{current.data?.source === 'design' ? `From your latest design (${current.data.templateName}).` : 'Change it to see what fits another metal.'}</p>
      </div>
      <ul className="space-y-1.5" aria-label={`Colours on ${metalLabel}`}>
        {plans.map((p) => (
          <li key={p.hex}>
            <label className="flex cursor-pointer items-start gap-2 text-sm" data-testid="apply-colour" data-hex={p.hex} data-fits={p.plan.fitsHere.fits}>
              <input type="radio" name={`${testId}-colour`} className="mt-1" checked={selected.hex === p.hex} onChange={() => setPicked(p.hex)} />
              <span aria-hidden="true" className="mt-0.5 inline-block size-4 shrink-0 rounded-full border border-border" style={{ backgroundColor: p.hex }} />
              <span>
                <span className="font-medium">
                  {p.name} <span className="font-mono text-xs">{p.hex}</span>
                </span>{' '}
                <FitMark plan={p.plan} metalLabel={metalLabel} />
              </span>
            </label>
          </li>
        ))}
      </ul>
      {selected.plan.fitsHere.fits ? (
        <Button type="button" variant="gold" size="sm" disabled={apply.isPending} onClick={() => run({ cardType: metal, accent: selected.hex })} data-testid={`${testId}-apply`}>
          <Wand2 aria-hidden="true" /> Apply to my card
        </Button>
      ) : switchTo ? (
        <Button type="button" variant="outline" size="sm" onClick={() => setConfirming(true)} data-testid={`${testId}-switch`}>
          Apply on {CARD_TYPES.find((c) => c.id === switchTo.cardType)!.label}...
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground" data-testid={`${testId}-not-applied`}>
          Not applied: {selected.plan.fitsHere.reason}
        </p>
      )}
      <Dialog open={confirming && !!switchTo} onOpenChange={setConfirming}>
        {switchTo ? (
          <DialogContent className="max-w-md" data-testid="apply-price-confirm">
            <DialogTitle>Switch to {switchTo.change.toLabel}?</DialogTitle>
            <DialogDescription>
              {selected.name} {selected.hex} cannot be made on {metalLabel}. Printing it changes your card from {switchTo.change.text}.
            </DialogDescription>
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => setConfirming(false)}>
                Keep {metalLabel}
              </Button>
              <Button
                type="button"
                variant="gold"
                disabled={apply.isPending}
                onClick={() => run({ cardType: metal, accent: selected.hex, switchTo: switchTo.cardType, confirmPriceChange: true })}
              >
                Switch and apply ({switchTo.change.differenceCents >= 0 ? '+' : '-'}${(Math.abs(switchTo.change.differenceCents) / 100).toFixed(2)} a card)
              </Button>
            </div>
          </DialogContent>
        ) : null}
      </Dialog>
    </div>
  );
}

function FitMark({ plan, metalLabel }: { plan: ApplyPlan; metalLabel: string }) {
  if (plan.fitsHere.fits)
    return (
      <span className="inline-flex items-center gap-1 text-xs text-green-600">
        <Check aria-hidden="true" className="size-3.5" /> Fits {metalLabel} ({plan.fitsHere.contrast.toFixed(2)}:1)
      </span>
    );
  return (
    <span className="block text-xs text-red-600">
      <X aria-hidden="true" className="inline size-3.5" /> Does not fit {metalLabel}: {plan.fitsHere.reason}
      {plan.switchTo ? ` Color Metal can print it (${plan.switchTo.change.differenceCents >= 0 ? '+' : '-'}$${(Math.abs(plan.switchTo.change.differenceCents) / 100).toFixed(2)} a card).` : ''}
    </span>
  );
}
