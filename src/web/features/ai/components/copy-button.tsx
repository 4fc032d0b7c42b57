import { useEffect, useRef, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { tryCopyText } from '#web/lib/clipboard';
import { cn } from '#web/lib/utils';

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
        const ok = await tryCopyText(text);
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
