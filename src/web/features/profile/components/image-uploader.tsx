import { useRef, useState } from 'react';
import { ImageUp, Trash2 } from 'lucide-react';
import { LOGO_ACCEPT, PROFILE_UPLOAD_MAX_BYTES } from '#shared/catalogue';
import { ApiError } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { cn } from '#web/lib/utils';
import { postUploadBannerLogo, postUploadLogo, postUploadProfileImage } from '#shared/contracts/uploads';
import { uploadToEndpoint } from '#web/lib/endpoint';

export type UploadKind = 'profile-image' | 'logo' | 'banner-logo';

const ENDPOINT = { 'profile-image': postUploadProfileImage, logo: postUploadLogo, 'banner-logo': postUploadBannerLogo } satisfies Record<UploadKind, unknown>;
const ACCEPT: Record<UploadKind, string> = {
  'profile-image': 'image/png,image/jpeg,image/gif,image/webp',
  logo: LOGO_ACCEPT,
  'banner-logo': LOGO_ACCEPT,
};
export const UPLOAD_HINT: Record<UploadKind, string> = {
  'profile-image': 'PNG, JPG, GIF up to 5MB',
  logo: 'PNG, JPG, SVG, PDF up to 5MB',
  'banner-logo': 'PNG, JPG, SVG, PDF up to 5MB',
};

function tooLarge() {
  toast({ title: 'File too large', description: 'Maximum file size is 5MB', variant: 'destructive' });
}

/** One image uploader: picks a file, checks size and type, uploads with progress, reports the URL. */
export function ImageUploader({
  kind,
  label,
  currentUrl,
  onUploaded,
  onRemove,
  round,
  disabled,
}: {
  kind: UploadKind;
  label: string;
  currentUrl: string | null;
  onUploaded: (url: string) => Promise<void> | void;
  onRemove?: () => Promise<void> | void;
  round?: boolean;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const id = `upload-${kind}`;

  async function onPick(file: File | undefined) {
    if (!file) return;
    if (input.current) input.current.value = '';
    if (file.size > PROFILE_UPLOAD_MAX_BYTES) return tooLarge();
    // logos may also be a PDF (its first page at 300 DPI); the photo is an image only
    const pdfLogo = kind !== 'profile-image' && (file.type === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf'));
    if (!file.type.startsWith('image/') && !pdfLogo) {
      toast({ title: 'Upload failed', description: 'Please choose an image file.', variant: 'destructive' });
      return;
    }
    setProgress(0);
    try {
      const res = await uploadToEndpoint(ENDPOINT[kind], file, { onProgress: setProgress });
      await onUploaded(res.url);
      toast({ title: 'Upload successful', description: `Your ${label.toLowerCase()} has been updated.` });
    } catch (err) {
      if (err instanceof ApiError && err.status === 413) tooLarge();
      else {
        const detail = err instanceof ApiError && err.status === 415 ? err.body?.message : undefined;
        toast({ title: 'Upload failed', description: detail ?? 'There was a problem uploading your file.', variant: 'destructive' });
      }
    } finally {
      setProgress(null);
    }
  }

  const busy = progress !== null;
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-border p-5 text-center" data-testid={`uploader-${kind}`}>
      <h3 className="font-semibold">{label}</h3>
      <div
        className={cn(
          'flex items-center justify-center overflow-hidden bg-muted',
          round ? 'size-28 rounded-full' : kind === 'banner-logo' ? 'h-20 w-48 rounded-lg' : 'size-28 rounded-lg',
        )}
      >
        {currentUrl ? (
          <img src={currentUrl} alt={`Current ${label.toLowerCase()}`} className={cn('size-full', round ? 'object-cover' : 'object-contain')} />
        ) : (
          <ImageUp className="size-8 text-muted-foreground" aria-hidden="true" />
        )}
      </div>
      <input
        ref={input}
        id={id}
        type="file"
        accept={ACCEPT[kind]}
        className="sr-only"
        disabled={busy || disabled}
        onChange={(e) => void onPick(e.target.files?.[0])}
      />
      <div className="flex gap-2">
        <Button type="button" variant="outline" size="sm" disabled={busy || disabled} onClick={() => input.current?.click()} aria-controls={id}>
          {busy ? 'Uploading...' : currentUrl ? `Change ${label.toLowerCase()}` : `Upload ${label.toLowerCase()}`}
        </Button>
        {currentUrl && onRemove ? (
          <Button type="button" variant="ghost" size="sm" disabled={busy || disabled} onClick={() => void onRemove()} aria-label={`Remove ${label.toLowerCase()}`}>
            <Trash2 aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      {busy ? (
        <div className="w-full" role="progressbar" aria-label={`Uploading ${label.toLowerCase()}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(progress * 100)}>
          <div className="h-1.5 w-full overflow-hidden rounded bg-muted">
            <div className="h-full bg-primary transition-[width]" style={{ width: `${Math.round(progress * 100)}%` }} />
          </div>
        </div>
      ) : null}
      <p className="text-xs text-muted-foreground">{UPLOAD_HINT[kind]}</p>
    </div>
  );
}
