import { useState, type FormEvent } from 'react';
import { Copy, Download, Power, PowerOff } from 'lucide-react';
import { cardType } from '#shared/catalogue';
import type { CardCode } from '#shared/schemas/engagement';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Badge } from '#web/components/ui/badge';
import { Button, buttonVariants } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog';
import { FormField, Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { QrImage } from '#web/components/qr-image';
import { qrDataUrl } from '#web/lib/qr-data-url';
import { useCardCodes, useCreateCardCode, useUpdateCardCode } from '#web/features/engagement/api';
import { getQrcode } from '#shared/contracts/profile';
import { endpointHref } from '#web/lib/endpoint';

function orderLine(c: CardCode): string | null {
  if (!c.order) return null;
  const type = cardType(c.order.cardType)?.label ?? c.order.cardType;
  return `Order #${c.order.id} · ${c.order.quantity} × ${type} · ${new Date(c.order.createdAt).toLocaleDateString()}`;
}

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Link copied!' });
  } catch {
    toast({ title: "Couldn't copy link", description: text, variant: 'destructive' });
  }
}

/**
 * Per-card-batch codes: every order gets its own short link /c/{code}, printed in that batch's
 * QR code. A lost batch's code can be turned off (scans then show a polite page) and on again.
 */
export function CardCodesManager() {
  const codes = useCardCodes();
  const create = useCreateCardCode();
  const update = useUpdateCardCode();
  const [label, setLabel] = useState('');
  const [labelError, setLabelError] = useState<string | undefined>();
  const [confirmOff, setConfirmOff] = useState<CardCode | null>(null);

  async function onCreate(e: FormEvent) {
    e.preventDefault();
    setLabelError(undefined);
    try {
      const made = await create.mutateAsync({ label: label.trim() });
      setLabel('');
      toast({ title: 'Card code created', description: `${made.code} opens your profile.` });
    } catch (err) {
      setLabelError(fieldErrors(err).label);
      toast({ title: 'Could not create the code', description: errorMessage(err), variant: 'destructive' });
    }
  }

  async function setActive(c: CardCode, active: boolean) {
    try {
      await update.mutateAsync({ code: c.code, body: { active } });
      setConfirmOff(null);
      toast({
        title: active ? 'Card code turned on' : 'Card code turned off',
        description: active ? `Scans of ${c.code} open your profile again.` : `Scans of ${c.code} now show a polite page instead of your profile.`,
      });
    } catch (err) {
      toast({ title: 'Could not change the code', description: errorMessage(err), variant: 'destructive' });
    }
  }

  const list = codes.data?.codes ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Card codes</CardTitle>
        <CardDescription>
          Each batch of cards you order gets its own short link, printed in its QR code, so you can see which cards bring visitors. If a batch is lost, turn its
          code off.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {codes.isLoading ? (
          <Skeleton className="h-28 w-full" />
        ) : codes.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(codes.error, 'Could not load your card codes.')}
          </p>
        ) : !list.length ? (
          <p className="rounded-md border border-dashed border-border p-6 text-center text-sm text-muted-foreground" data-testid="card-codes-empty">
            No card codes yet. Each order of cards gets one automatically; you can also add one for cards you already have.
          </p>
        ) : (
          <ul className="space-y-3" aria-label="Card codes">
            {list.map((c) => (
              <li key={c.code} className="flex flex-col gap-4 rounded-md border border-border p-4 sm:flex-row" data-testid="card-code-row" data-code={c.code}>
                <QrImage value={c.qrText} src={qrDataUrl(c.qrText, { size: 104, ecl: 'M', margin: 2 })} size={104} alt={`QR code of card code ${c.code}`} className={c.active ? '' : 'opacity-40'} />
                <div className="min-w-0 flex-1 space-y-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-mono text-lg font-semibold tracking-widest">{c.code}</span>
                    {c.active ? <Badge variant="green">Active</Badge> : <Badge variant="red">Turned off</Badge>}
                  </p>
                  <p className="text-sm font-medium">{c.label}</p>
                  {orderLine(c) ? <p className="text-xs text-muted-foreground">{orderLine(c)}</p> : null}
                  <p className="break-all text-xs text-muted-foreground">{c.url}</p>
                  <p className="text-sm" data-testid="card-code-views">
                    {c.views} {c.views === 1 ? 'view' : 'views'}
                    {c.lastViewAt ? <span className="text-muted-foreground"> · last {new Date(c.lastViewAt).toLocaleDateString()}</span> : null}
                  </p>
                  <div className="flex flex-wrap gap-2 pt-2">
                    <Button variant="outline" size="sm" onClick={() => copy(c.url)}>
                      <Copy aria-hidden="true" /> Copy link
                    </Button>
                    <a
                      className={buttonVariants({ variant: 'outline', size: 'sm' })}
                      href={endpointHref(getQrcode, { query: { data: c.qrText, size: 600, format: 'png' } })}
                      download={`card-code-${c.code}.png`}
                    >
                      <Download aria-hidden="true" /> QR code
                    </a>
                    {c.active ? (
                      <Button variant="outline" size="sm" onClick={() => setConfirmOff(c)} disabled={update.isPending}>
                        <PowerOff aria-hidden="true" /> Turn off
                      </Button>
                    ) : (
                      <Button variant="outline" size="sm" onClick={() => setActive(c, true)} disabled={update.isPending}>
                        <Power aria-hidden="true" /> Turn on
                      </Button>
                    )}
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
        <form onSubmit={onCreate} className="flex flex-col gap-2 sm:flex-row sm:items-end" noValidate>
          <FormField id="card-code-label" label="New code for cards you already have" error={labelError} className="flex-1">
            <Input
              id="card-code-label"
              value={label}
              maxLength={60}
              placeholder="e.g. Trade show cards"
              onChange={(e) => setLabel(e.target.value)}
              aria-invalid={!!labelError}
              aria-describedby={labelError ? 'card-code-label-error' : undefined}
            />
          </FormField>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Adding...' : 'Add code'}
          </Button>
        </form>
      </CardContent>
      <Dialog open={!!confirmOff} onOpenChange={(o) => !o && setConfirmOff(null)}>
        <DialogContent>
          <DialogTitle>Turn off {confirmOff?.code}?</DialogTitle>
          <DialogDescription>
            Anyone scanning a card of this batch will see a polite page saying the card is no longer active, not your profile. You can turn it on again at any time.
          </DialogDescription>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => setConfirmOff(null)}>
              Cancel
            </Button>
            <Button variant="destructive" disabled={update.isPending} onClick={() => confirmOff && setActive(confirmOff, false)}>
              Turn off
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
