import { useMemo, useState } from 'react';
import { AlertTriangle, Download, FileText, Nfc, PackageOpen } from 'lucide-react';
import { CARD_TYPES, orderStatusLabel } from '#shared/catalogue';
import { PRODUCTION_STATUSES, type ProductionOrder, type ProductionSheetLayout } from '#shared/schemas/production';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Checkbox } from '#web/components/ui/checkbox';
import { Input, Label, Select } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { productionFiles, useDownloadNfcCsv, useExportZip, useProductionQueue } from '#web/features/production/api';
import { OrderActions } from './order-actions';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

function SheetFields({ sheet, onChange }: { sheet: ProductionSheetLayout; onChange: (s: ProductionSheetLayout) => void }) {
  const num = (key: 'rows' | 'columns' | 'gapMm', label: string, min: number, max: number, step = 1) => (
    <div>
      <Label htmlFor={`sheet-${key}`}>{label}</Label>
      <Input id={`sheet-${key}`} type="number" inputMode="decimal" min={min} max={max} step={step} value={sheet[key]} onChange={(e) => onChange({ ...sheet, [key]: Number(e.target.value) })} />
    </div>
  );
  return (
    <fieldset className="grid grid-cols-3 gap-2">
      <legend className="sr-only">Sheet layout</legend>
      {num('rows', 'Rows', 1, 20)}
      {num('columns', 'Columns', 1, 20)}
      {num('gapMm', 'Gap (mm)', 0, 50, 0.5)}
      <label className="col-span-3 flex items-center gap-2 text-sm">
        <Checkbox checked={sheet.registrationMarks} onCheckedChange={(v) => onChange({ ...sheet, registrationMarks: v === true })} aria-label="Registration marks" />
        Registration marks
      </label>
    </fieldset>
  );
}

function QueueItem({ order, selected, onSelect }: { order: ProductionOrder; selected: boolean; onSelect: (on: boolean) => void }) {
  const nfcCsv = useDownloadNfcCsv();
  return (
    <Card className="space-y-3 p-4" data-testid="production-order" data-order-id={order.id}>
      <div className="flex items-start gap-3">
        <Checkbox className="mt-1" checked={selected} onCheckedChange={(v) => onSelect(v === true)} aria-label={`Select order #${order.id}`} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold">Order #{order.id}</h3>
            <Badge variant="grey" data-status={order.status}>
              {order.statusLabel}
            </Badge>
            {order.overdue ? (
              <Badge variant="red" data-testid="overdue">
                <AlertTriangle className="size-3" aria-hidden="true" /> Overdue
              </Badge>
            ) : null}
          </div>
          <p className="text-sm break-words">
            {order.customerName}
            {order.companyName ? `, ${order.companyName}` : ''}
          </p>
          <p className="text-sm text-muted-foreground break-words">
            {order.quantity} × {order.cardTypeLabel} ({order.cardStyle}) · {order.deliveryLabel}
          </p>
          <p className={order.overdue ? 'text-sm font-medium text-destructive' : 'text-sm font-medium'}>Due {day(order.dueAt)}</p>
          {order.fulfilment?.trackingNumber ? (
            <p className="text-sm break-all">
              {order.fulfilment.carrierLabel}{' '}
              <a className="font-mono underline" href={order.fulfilment.trackingUrl ?? undefined} target="_blank" rel="noopener noreferrer">
                {order.fulfilment.trackingNumber}
              </a>
            </p>
          ) : null}
          {order.fulfilment?.pickupCode ? (
            <p className="text-sm">
              Pickup code <span className="font-mono font-semibold tracking-widest">{order.fulfilment.pickupCode}</span>
            </p>
          ) : null}
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm" variant="ghost">
          <a href={productionFiles.jobTicket(order.id)} download>
            <FileText /> Job ticket
          </a>
        </Button>
        {/* fetched, not a link: a stale session is asked "Confirm it is you" first (decision 39-05) */}
        <Button type="button" size="sm" variant="ghost" onClick={() => nfcCsv.mutate(order.id)} disabled={nfcCsv.isPending}>
          <Nfc /> NFC CSV
        </Button>
        <Button asChild size="sm" variant="ghost">
          <a href={productionFiles.printFiles(order.id)} download>
            <PackageOpen /> Print files
          </a>
        </Button>
      </div>
      <OrderActions order={order} />
    </Card>
  );
}

/** Production (staff): the approved orders by due date, their files, one ZIP for the day, and the floor's status steps. */
export function ProductionTab() {
  const [status, setStatus] = useState('');
  const [cardType, setCardType] = useState('');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [withSheet, setWithSheet] = useState(false);
  const [sheet, setSheet] = useState<ProductionSheetLayout>({ rows: 5, columns: 2, gapMm: 3, registrationMarks: true });
  const queue = useProductionQueue({ status, cardType });
  const exportZip = useExportZip();
  const orders = useMemo(() => queue.data?.orders ?? [], [queue.data]);
  const selected = orders.filter((o) => chosen.has(o.id)).map((o) => o.id);
  const toggle = (id: number, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <div className="space-y-4">
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <Label htmlFor="production-status">Status</Label>
          <Select id="production-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">On the floor</option>
            {PRODUCTION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {orderStatusLabel(s)}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="production-card-type">Card type</Label>
          <Select id="production-card-type" value={cardType} onChange={(e) => setCardType(e.target.value)}>
            <option value="">All card types</option>
            {CARD_TYPES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </Select>
        </div>
      </div>

      <Card className="space-y-3 p-4">
        <div className="flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2 text-sm">
            <Checkbox
              checked={orders.length > 0 && selected.length === orders.length}
              onCheckedChange={(v) => setChosen(v === true ? new Set(orders.map((o) => o.id)) : new Set())}
              aria-label="Select all orders"
            />
            Select all
          </label>
          <span className="text-sm text-muted-foreground">{selected.length} selected</span>
          <label className="flex items-center gap-2 text-sm">
            <Checkbox checked={withSheet} onCheckedChange={(v) => setWithSheet(v === true)} aria-label="Add a sheet layout" />
            Sheet layout for a jig
          </label>
        </div>
        {withSheet ? <SheetFields sheet={sheet} onChange={setSheet} /> : null}
        <Button disabled={selected.length === 0 || exportZip.isPending} onClick={() => exportZip.mutate({ orderIds: selected, ...(withSheet ? { sheet } : {}) })}>
          <Download /> {exportZip.isPending ? 'Preparing ZIP...' : 'Download ZIP'}
        </Button>
      </Card>

      {queue.isLoading ? (
        <Skeleton className="h-40 w-full" />
      ) : queue.error ? (
        <p className="text-sm text-destructive">{errorMessage(queue.error, 'Could not load the production queue.')}</p>
      ) : orders.length === 0 ? (
        <p className="text-sm text-muted-foreground">No approved orders here. Orders appear once their design is approved or they move past Pending.</p>
      ) : (
        <div className="space-y-3" aria-label="Production queue">
          {orders.map((o) => (
            <QueueItem key={o.id} order={o} selected={chosen.has(o.id)} onSelect={(on) => toggle(o.id, on)} />
          ))}
        </div>
      )}
    </div>
  );
}
