import { useEffect, useRef, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { cn } from '#web/lib/utils';

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {}
  // older browsers and non-secure origins: a temporary text area and the copy command
  try {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  } catch {
    return false;
  }
}

/** A small copy button that confirms in place (no toast: toasts are kept for the spec's messages). */
export function CopyButton({ text, label, className }: { text: string; label: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <button
      type="button"
      aria-label={state === 'copied' ? `Copied ${text}` : label}
      title={state === 'failed' ? 'Copy failed: select the text to copy it' : label}
      onClick={async () => {
        const ok = await copyText(text);
        setState(ok ? 'copied' : 'failed');
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setState('idle'), 1500);
      }}
      className={cn(
        'inline-flex size-7 items-center justify-center rounded-md border border-border bg-background/80 text-foreground transition-colors hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring cursor-pointer',
        className,
      )}
    >
      {state === 'copied' ? <Check aria-hidden="true" className="size-3.5 text-green-600" /> : <Copy aria-hidden="true" className="size-3.5" />}
      <span className="sr-only" aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : ''}
      </span>
    </button>
  );
}
