import { useRef } from 'react';
import { AlertTriangle, ImageUp, Wand2 } from 'lucide-react';
import type { LogoFinding } from '#shared/templates/logo-check';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useRemoveLogoBackground, useUploadDesignLogo } from '#web/features/designs/api';

const ACCEPT = 'image/png,image/jpeg,image/webp,image/svg+xml,application/pdf';
const CHECKER = { backgroundColor: '#ffffff', backgroundImage: 'conic-gradient(#d4d4d8 25%, #ffffff 0 50%, #d4d4d8 0 75%, #ffffff 0)', backgroundSize: '12px 12px' };
const isSvg = (href: string) => /\.svg(?:$|\?)|^data:image\/svg/i.test(href);

/** The warnings about the logo on this metal (decision 37-06); `compact`: titles only (the submit step). */
export function LogoWarnings({ findings, compact = false, testId = 'logo-warnings' }: { findings: LogoFinding[]; compact?: boolean; testId?: string }) {
  if (!findings.length) return null;
  return (
    <div className="rounded-md border border-amber-600/40 bg-amber-500/10 p-3 text-sm" role="status" data-testid={testId}>
      <ul className="space-y-2">
        {findings.map((f) => (
          <li key={f.id} className="flex gap-2" data-finding={f.id}>
            <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-500" aria-hidden="true" />
            <span className="min-w-0 break-words">
              <span className="font-medium">{f.title}.</span> {compact ? null : f.message}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The submit step's question when the logo has warnings: fix it, or send it knowingly. */
export function LogoAck({ findings, checked, onChange, error }: { findings: LogoFinding[]; checked: boolean; onChange: (v: boolean) => void; error: boolean }) {
  if (!findings.length) return null;
  return (
    <div className="space-y-2" data-testid="logo-ack">
      <LogoWarnings findings={findings} compact testId="logo-warnings-submit" />
      <label className="flex items-start gap-2 text-sm">
        <input id="logo-ack" type="checkbox" className="mt-1 size-4 shrink-0" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-invalid={error} aria-describedby={error ? 'logo-ack-error' : undefined} />
        <span>I have seen how my logo comes out on this metal: send it as it is.</span>
      </label>
      {error ? (
        <p id="logo-ack-error" className="text-sm text-destructive" role="alert">
          Fix the logo (see Logo above), or tick the box to send it as it is.
        </p>
      ) : null}
    </div>
  );
}

/**
 * The design's logo (issue 37): upload one, or remove the background of the current one with the AI
 * image tools' endpoint, so a design sent back for "a transparent logo" is fixed here. `logoHref`:
 * the logo the card shows (the design's own, else the profile's); `onChange` gets the new file's URL.
 */
export function LogoPanel({ logoHref, onChange, findings }: { logoHref: string | null | undefined; onChange: (url: string) => void; findings: LogoFinding[] }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadDesignLogo();
  const cut = useRemoveLogoBackground();
  const busy = upload.isPending || cut.isPending;

  const choose = (f: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!f) return;
    upload.mutate(f, {
      onSuccess: (url) => {
        onChange(url);
        toast({ title: 'Logo uploaded', description: 'Your card shows the new logo.' });
      },
      onError: (err) => toast({ title: 'Upload failed', description: errorMessage(err), variant: 'destructive' }),
    });
  };
  const removeBackground = () => {
    if (!logoHref) return;
    cut.mutate(logoHref, {
      onSuccess: (url) => {
        onChange(url);
        toast({ title: 'Background removed!', description: 'Your card now uses the logo with a transparent background.' });
      },
      onError: (err) => toast({ title: 'Could not remove the background', description: errorMessage(err), variant: 'destructive' }),
    });
  };

  return (
    <section aria-labelledby="design-logo-title" className="space-y-3" data-testid="design-logo-panel">
      <h3 id="design-logo-title" className="text-sm font-medium">
        Logo
      </h3>
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex h-16 w-24 shrink-0 items-center justify-center overflow-hidden rounded-md border border-border" style={CHECKER}>
          {logoHref ? <img src={logoHref} alt="Your logo" className="max-h-full max-w-full object-contain" data-testid="design-logo" /> : <span className="px-1 text-center text-xs text-neutral-600">No logo</span>}
        </div>
        <div className="flex min-w-0 flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => input.current?.click()}>
            {upload.isPending ? <Spinner className="size-4" label="Uploading the logo" /> : <ImageUp aria-hidden="true" />}
            {logoHref ? 'Upload another logo' : 'Upload logo'}
          </Button>
          {logoHref && !isSvg(logoHref) ? (
            <Button type="button" variant="outline" size="sm" disabled={busy} onClick={removeBackground}>
              {cut.isPending ? <Spinner className="size-4" label="Removing the background" /> : <Wand2 aria-hidden="true" />}
              {cut.isPending ? 'Removing background...' : 'Remove background'}
            </Button>
          ) : null}
        </div>
        <input ref={input} id="design-logo-file" type="file" accept={ACCEPT} className="sr-only" tabIndex={-1} aria-label="Logo file" onChange={(e) => choose(e.target.files?.[0])} data-testid="design-logo-input" />
      </div>
      <p className="text-xs text-muted-foreground">PNG with a transparent background works best (JPEG, WebP, SVG or a PDF at 300 DPI too). {logoHref ? '' : "Without a logo the template shows your initials."}</p>
      <LogoWarnings findings={findings} />
    </section>
  );
}
