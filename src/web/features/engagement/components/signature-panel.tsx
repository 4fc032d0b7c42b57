import { useMemo, useState } from 'react';
import { Copy, FileCode, Type } from 'lucide-react';
import { buildEmailSignature, type SignatureProfile } from '#web/features/engagement/email-signature';
import { toast } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Checkbox } from '#web/components/ui/checkbox';
import { Textarea } from '#web/components/ui/input';

/**
 * Copies the signature as rich HTML (ClipboardItem with text/html and text/plain, so pasting into
 * Gmail, Outlook or Apple Mail keeps the layout and a plain-text editor gets the text); where the
 * browser cannot write HTML to the clipboard, the plain text is copied instead.
 */
export async function copySignature(html: string, text: string): Promise<'rich' | 'text'> {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    try {
      await navigator.clipboard.write([
        new ClipboardItem({ 'text/html': new Blob([html], { type: 'text/html' }), 'text/plain': new Blob([text], { type: 'text/plain' }) }),
      ]);
      return 'rich';
    } catch {
      // fall through to plain text
    }
  }
  await navigator.clipboard.writeText(text);
  return 'text';
}

function Option({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-sm">
      <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} />
      {label}
    </label>
  );
}

/** The profile's e-mail signature: options, a preview as mail clients show it, and copy buttons. */
export function SignaturePanel({ profile, origin = window.location.origin }: { profile: SignatureProfile; origin?: string }) {
  const [showPhoto, setShowPhoto] = useState(true);
  const [showQr, setShowQr] = useState(true);
  const [showLinks, setShowLinks] = useState(true);
  const sig = useMemo(() => buildEmailSignature(profile, { origin, showPhoto, showQr, showLinks }), [profile, origin, showPhoto, showQr, showLinks]);
  const local = /^(localhost|127\.|\[::1\])/.test(new URL(origin).hostname);

  async function onCopy() {
    try {
      const how = await copySignature(sig.html, sig.text);
      toast(
        how === 'rich'
          ? { title: 'Signature copied', description: "Paste it into your mail app's signature settings." }
          : { title: 'Signature copied as text', description: 'Your browser could not copy the formatted version; use Copy HTML source instead.' },
      );
    } catch {
      toast({ title: "Couldn't copy the signature", description: 'Select the preview and copy it by hand.', variant: 'destructive' });
    }
  }

  async function copyText(value: string, what: string) {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: `${what} copied` });
    } catch {
      toast({ title: `Couldn't copy the ${what.toLowerCase()}`, description: 'Select it and copy it by hand.', variant: 'destructive' });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">E-mail signature</CardTitle>
        <CardDescription>A signature with your photo, details, links and QR code that works in Gmail, Outlook and Apple Mail. Every link opens your digital card.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap gap-4">
          <Option id="sig-photo" label="Photo" checked={showPhoto} onChange={setShowPhoto} />
          <Option id="sig-qr" label="QR code" checked={showQr} onChange={setShowQr} />
          <Option id="sig-links" label="Links" checked={showLinks} onChange={setShowLinks} />
        </div>
        {/* the signature at the size mail clients show it (images not squeezed by the page's max-width rule); on a phone it scrolls */}
        <div className="overflow-x-auto rounded-md border border-border bg-white p-5 text-black [&_img]:max-w-none" aria-label="Signature preview" role="region" data-scroll-strip>
          {/* the generator escapes every value; this is the exact HTML that gets copied */}
          <div data-testid="signature-preview" dangerouslySetInnerHTML={{ __html: sig.html }} />
        </div>
        {local ? (
          <p className="text-xs text-muted-foreground">
            Images load from {origin}; people you write to see them once the site is reachable on the internet.
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button variant="gold" onClick={onCopy}>
            <Copy aria-hidden="true" /> Copy signature
          </Button>
          <Button variant="outline" onClick={() => copyText(sig.text, 'Plain text')}>
            <Type aria-hidden="true" /> Copy plain text
          </Button>
          <Button variant="outline" onClick={() => copyText(sig.html, 'HTML source')}>
            <FileCode aria-hidden="true" /> Copy HTML source
          </Button>
        </div>
        <details className="text-sm">
          <summary className="cursor-pointer text-muted-foreground">How to add it to your mail app</summary>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-muted-foreground">
            <li>Gmail: Settings, See all settings, General, Signature: create one and paste.</li>
            <li>Outlook: Settings, Mail, Compose and reply, Email signature: paste.</li>
            <li>Apple Mail: Settings, Signatures: add one and paste (untick "Always match my default message font").</li>
          </ul>
        </details>
        <details className="text-sm">
          <summary className="cursor-pointer text-muted-foreground">HTML source</summary>
          <Textarea readOnly value={sig.html} className="mt-2 font-mono text-xs" rows={6} aria-label="Signature HTML source" />
        </details>
      </CardContent>
    </Card>
  );
}
