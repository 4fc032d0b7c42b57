import { Copy } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { toast } from '#web/lib/toast';

/** A value to copy into the identity provider's or DNS host's settings. */
export function CopyValue({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <div className="font-medium">{label}</div>
      <div className="flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-muted px-2 py-1" data-testid={testId}>
          {value}
        </code>
        <Button
          type="button"
          size="sm"
          variant="outline"
          aria-label={`Copy ${label}`}
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => toast({ title: 'Copied' }));
          }}
        >
          <Copy /> Copy
        </Button>
      </div>
    </div>
  );
}
