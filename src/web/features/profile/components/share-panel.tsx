import { useState } from 'react';
import { Copy, Download, ExternalLink, Eye, Share2 } from 'lucide-react';
import { QR_STYLES, type QrStyle } from '#shared/qr/qr-svg';
import type { Profile } from '#shared/schemas/profile';
import { publicProfilePath, publicProfileUrl } from '#shared/routes';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Input, Label, Select } from '#web/components/ui/input';
import { copyText } from '#web/lib/clipboard';
import { saveBlob } from '#web/lib/download';
import { toast } from '#web/lib/toast';
import { QrImage } from '#web/components/qr-image';
import { useQrDataUrl } from '#web/lib/qr-data-url';
import { BusinessCardPreview } from './business-card-preview';
import { HandleBox } from './handle-box';
import { getQrcode, getVcardByProfileId } from '#shared/contracts/profile';
import { endpointHref, fetchEndpoint } from '#web/lib/endpoint';

export function vcardFileName(name: string): string {
  return `${name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim() || 'contact'}.vcf`;
}

async function fetchVcard(profileId: string): Promise<string> {
  const res = await fetchEndpoint(getVcardByProfileId, { params: { profileId } });
  return res.text();
}

/** Copies the profile's public link, confirming with a toast (Link copied! / Couldn't copy link with the URL shown). */
export async function copyProfileLink(profileId: string) {
  const url = publicProfileUrl(window.location.origin, profileId);
  try {
    await copyText(url);
    toast({ title: 'Link copied!', description: 'Your profile link is on the clipboard.' });
  } catch {
    toast({ title: "Couldn't copy link", description: url, variant: 'destructive' });
  }
}

/** Public link with copy (copyProfileLink), open and preview. */
export function PublicLinkBox({ profileId }: { profileId: string }) {
  const url = publicProfileUrl(window.location.origin, profileId);
  return (
    <div className="space-y-2">
      <Label htmlFor="public-link">Your public profile link</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input id="public-link" readOnly value={url} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs sm:text-sm" />
        <div className="flex flex-wrap gap-2">
          <Button type="button" onClick={() => void copyProfileLink(profileId)}>
            <Copy aria-hidden="true" />
            Copy Link
          </Button>
          <Button asChild variant="outline">
            <a href={publicProfilePath(profileId)} target="_blank" rel="noopener">
              <ExternalLink aria-hidden="true" />
              Open
            </a>
          </Button>
          <Button asChild variant="ghost">
            <a href={publicProfilePath(profileId, { preview: 'true' })} aria-label="Preview your public profile">
              <Eye aria-hidden="true" />
              Preview
            </a>
          </Button>
        </div>
      </div>
    </div>
  );
}

/** Contact-card panel: QR code (180 px) and the contact file's download, copy and share actions. */
export function ContactCardPanel({ profile }: { profile: Profile }) {
  const url = publicProfileUrl(window.location.origin, profile.id);
  const qrSrc = useQrDataUrl(url, { size: 180, ecl: 'H' });
  const fileName = vcardFileName(profile.fullName);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  async function download() {
    try {
      const text = await fetchVcard(profile.id);
      saveBlob(new Blob([text], { type: 'text/vcard;charset=utf-8' }), fileName);
      toast({ title: 'VCard Downloaded', description: `${fileName} is ready to add to your contacts.` });
    } catch {
      toast({ title: 'Download Failed', description: 'Please try again.', variant: 'destructive' });
    }
  }
  async function copy() {
    try {
      await copyText(await fetchVcard(profile.id));
      toast({ title: 'VCard Copied', description: 'The contact card is on the clipboard.' });
    } catch {
      toast({ title: 'Copy Failed', description: 'Please try again.', variant: 'destructive' });
    }
  }
  async function share() {
    try {
      const text = await fetchVcard(profile.id);
      const file = new File([text], fileName, { type: 'text/vcard' });
      if (navigator.canShare?.({ files: [file] })) {
        await navigator.share({ files: [file], title: profile.fullName, text: `${profile.fullName}'s contact card` });
      } else {
        await navigator.share({ title: profile.fullName, text: `${profile.fullName}'s digital business card`, url });
      }
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return; // the person closed the share sheet
      toast({ title: 'Share Failed', description: 'Please try again.', variant: 'destructive' });
    }
  }

  return (
    <Card className="flex flex-col items-center gap-4 p-6 text-center" data-testid="contact-card-panel">
      <h3 className="text-lg font-semibold">Contact Card</h3>
      <QrImage value={url} src={qrSrc} size={180} alt="QR code for your contact card" />
      <p className="max-w-xs text-sm text-muted-foreground">Save your details as a contact file (vCard 3.0) that phones import in one tap.</p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button type="button" size="sm" onClick={() => void download()}>
          <Download aria-hidden="true" />
          Download
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy
        </Button>
        {canShare ? (
          <Button type="button" size="sm" variant="outline" onClick={() => void share()}>
            <Share2 aria-hidden="true" />
            Share
          </Button>
        ) : null}
      </div>
    </Card>
  );
}

/** Tab share: link, QR code with styles, contact card and the business card preview. */
export function SharePanel({ profile }: { profile: Profile }) {
  const [style, setStyle] = useState<QrStyle>('standard');
  const url = publicProfileUrl(window.location.origin, profile.id);
  const qrSrc = useQrDataUrl(url, { size: 200, style, ecl: 'H' });
  const qrDownload = endpointHref(getQrcode, { query: { data: url, size: 1024, style, format: 'png' } });
  return (
    <div className="space-y-8">
      <HandleBox profile={profile} />
      <PublicLinkBox profileId={profile.id} />
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        <Card className="flex flex-col items-center gap-4 p-6 text-center" data-testid="qr-panel">
          <h3 className="text-lg font-semibold">QR Code</h3>
          <QrImage value={url} src={qrSrc} size={200} alt="QR code of your public profile" />
          <div className="flex w-full max-w-xs items-center gap-2">
            <Label htmlFor="qr-style" className="shrink-0">
              Style
            </Label>
            <Select id="qr-style" value={style} onChange={(e) => setStyle(e.target.value as QrStyle)}>
              {QR_STYLES.map((s) => (
                <option key={s} value={s}>
                  {s[0].toUpperCase() + s.slice(1)}
                </option>
              ))}
            </Select>
          </div>
          <Button asChild variant="outline" size="sm">
            <a href={qrDownload} download={`${profile.fullName.replace(/[^\w -]+/g, '').trim() || 'profile'}-qr.png`}>
              <Download aria-hidden="true" />
              Download QR Code
            </a>
          </Button>
        </Card>
        <ContactCardPanel profile={profile} />
      </div>
      <Card className="p-6">
        <h3 className="mb-4 text-center text-lg font-semibold">Business Card Preview</h3>
        <BusinessCardPreview templateId={profile.templateId} version={profile.updatedAt} />
      </Card>
    </div>
  );
}
