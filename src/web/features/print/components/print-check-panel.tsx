import { AlertTriangle, CheckCircle2, FileDown, XCircle } from 'lucide-react';
import type { PrintCheck, PrintCheckStatus } from '#shared/schemas/print';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/api';
import { printKeys, usePrintCheck } from '#web/features/print/api';

const STYLE: Record<PrintCheckStatus, string> = {
  ok: 'border-green-600/40 bg-green-500/10',
  warning: 'border-amber-600/40 bg-amber-500/10',
  fail: 'border-red-600/40 bg-red-500/10',
};

function StatusIcon({ status }: { status: PrintCheckStatus }) {
  if (status === 'ok') return <CheckCircle2 className="size-4 shrink-0 text-green-500" aria-hidden="true" />;
  if (status === 'warning') return <AlertTriangle className="size-4 shrink-0 text-amber-500" aria-hidden="true" />;
  return <XCircle className="size-4 shrink-0 text-red-500" aria-hidden="true" />;
}

const PROCESS_LABEL = { engrave: 'Engraving (black = engraved)', cmyk: 'Colour print (CMYK)' } as const;

function Proofs({ check }: { check: PrintCheck }) {
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      {check.proofs.map((p) => (
        <figure key={p.side} className="min-w-0">
          <img src={p.image} width={p.width} height={p.height} alt={`Print proof of the ${p.side} at 300 DPI`} className="h-auto w-full rounded-md border border-border bg-white" data-testid={`print-proof-${p.side}`} />
          <figcaption className="mt-1 text-xs text-muted-foreground">
            {p.side === 'front' ? 'Front' : 'Back'} print proof · {check.processes.map((x) => PROCESS_LABEL[x]).join(', ')} · die line magenta
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

/** The design review's print check (issue 22): the print proof, the QR read from it and the checks. */
export function PrintCheckPanel({ cardId, showProofs = true }: { cardId: number; showProofs?: boolean }) {
  const q = usePrintCheck(cardId);
  if (q.isLoading)
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="print-check" data-status="loading">
        <Spinner className="size-4" label="Running the print check" /> Making the print proof...
      </p>
    );
  if (q.isError || !q.data)
    return (
      <p className="text-sm text-destructive" role="alert" data-testid="print-check" data-status="error">
        Print check could not run: {errorMessage(q.error)}
      </p>
    );
  const c = q.data;
  return (
    <section className="space-y-2" data-testid="print-check" data-status={c.blocking ? 'fail' : 'pass'} aria-label="Print check">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-semibold">Print check: {c.blocking ? 'failed' : 'passed'}</h4>
        <div className="flex gap-3 text-xs">
          <a className="inline-flex items-center gap-1 underline" href={printKeys.pdf(cardId)} download>
            <FileDown className="size-3" aria-hidden="true" /> Print PDF
          </a>
          <a className="inline-flex items-center gap-1 underline" href={printKeys.svg(cardId)} download>
            <FileDown className="size-3" aria-hidden="true" /> SVG
          </a>
        </div>
      </div>
      {showProofs ? <Proofs check={c} /> : null}
      <ul className="space-y-1">
        {c.checks.map((k) => (
          <li key={k.id} className={`rounded-md border p-2 text-sm ${STYLE[k.status]}`} data-testid={`print-check-${k.id}`} data-status={k.status}>
            <p className="flex flex-wrap items-center gap-2 font-medium">
              <StatusIcon status={k.status} />
              <span>{k.label}</span>
              <span className="break-all text-xs font-normal text-muted-foreground">{k.figure}</span>
            </p>
            <p className="mt-0.5 break-words text-xs">{k.message}</p>
          </li>
        ))}
      </ul>
      {c.warnings.length ? (
        <ul className="list-disc pl-5 text-xs text-muted-foreground">
          {c.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
