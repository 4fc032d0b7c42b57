import { RotateCcw } from 'lucide-react';
import type { AiCurrentDesign } from '#shared/schemas/ai';
import { Button } from '#web/components/ui/button';

/** Where Design Feedback's form came from: the latest design, the profile, or nothing yet. */
export function CurrentDesignNote({ design, onReload }: { design: AiCurrentDesign | null; onReload: () => void }) {
  if (!design) return null;
  const what = `${design.templateName} on ${design.cardTypeLabel}`;
  const text =
    design.source === 'design'
      ? `Loaded from your latest design: ${what}${design.orderId ? ` (order #${design.orderId})` : ''}.`
      : design.source === 'profile'
        ? `Loaded from your profile: ${what}.`
        : 'No design yet: describe your card below, or design it first.';
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border bg-muted/40 px-3 py-2 text-sm" data-testid="current-design-source" data-source={design.source}>
      <span>{text}</span>
      {design.source !== 'none' ? (
        <Button type="button" variant="ghost" size="sm" onClick={onReload}>
          <RotateCcw aria-hidden="true" /> Reload my design
        </Button>
      ) : null}
    </div>
  );
}
