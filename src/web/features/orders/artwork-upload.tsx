import { useRef, useState } from 'react';
import { FileImage, Upload, X } from 'lucide-react';
import { ARTWORK_ACCEPT, ARTWORK_EXTENSIONS, ARTWORK_MAX_BYTES, ARTWORK_TYPE_MESSAGE } from '#shared/catalogue';
import { Button } from '#web/components/ui/button';
import { Label } from '#web/components/ui/input';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { uploadArtwork } from './api';

export interface ArtworkState {
  url: string | null;
  /** the signed-out upload's own token (proof the artwork is ours, issue 19) */
  token?: string | null;
  uploading: boolean;
}

const MAX_MB = ARTWORK_MAX_BYTES / (1024 * 1024);

/**
 * One optional artwork file: uploaded as soon as it is chosen, with progress; the server checks the
 * real type, sanitizes SVG and re-encodes pictures. Reports its URL (or null) to the form.
 */
export function ArtworkUpload({ onChange, disabled }: { onChange: (state: ArtworkState) => void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const clear = () => {
    setName(null);
    setProgress(null);
    setDone(false);
    setError(null);
    if (input.current) input.current.value = '';
    onChange({ url: null, uploading: false });
  };

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
    if (!(ARTWORK_EXTENSIONS as readonly string[]).includes(ext)) {
      const msg = ARTWORK_TYPE_MESSAGE;
      setError(msg);
      toast({ title: 'Upload failed', description: msg, variant: 'destructive' });
      if (input.current) input.current.value = '';
      return;
    }
    if (file.size > ARTWORK_MAX_BYTES) {
      const msg = `Maximum file size is ${MAX_MB}MB`;
      setError(msg);
      toast({ title: 'File too large', description: msg, variant: 'destructive' });
      if (input.current) input.current.value = '';
      return;
    }
    setName(file.name);
    setDone(false);
    setProgress(0);
    onChange({ url: null, uploading: true });
    try {
      const { url, token } = await uploadArtwork(file, (f) => setProgress(Math.round(f * 100)));
      setProgress(100);
      setDone(true);
      onChange({ url, token, uploading: false });
      toast({ title: 'Upload successful', description: `${file.name} is attached to your order.` });
    } catch (err) {
      const msg = errorMessage(err, 'There was a problem uploading your file.');
      setName(null);
      setProgress(null);
      setError(msg);
      if (input.current) input.current.value = '';
      onChange({ url: null, uploading: false });
      toast({ title: 'Upload failed', description: msg, variant: 'destructive' });
    }
  };

  const uploading = progress !== null && !done;

  return (
    <div className="space-y-2">
      <Label htmlFor="order-artwork">Artwork (optional)</Label>
      <p id="order-artwork-hint" className="text-xs text-muted-foreground">
        Your logo or design: PNG, JPG, JPEG, WEBP or SVG, up to {MAX_MB}MB. One file.
      </p>
      <input
        ref={input}
        id="order-artwork"
        type="file"
        accept={ARTWORK_ACCEPT}
        className="sr-only"
        aria-describedby={error ? 'order-artwork-error' : 'order-artwork-hint'}
        disabled={disabled || uploading}
        onChange={(e) => void choose(e.target.files?.[0])}
      />
      {name ? (
        <div className="flex items-center gap-3 rounded-md border border-border p-3" data-testid="artwork-file">
          <FileImage className="size-5 shrink-0 text-gold" aria-hidden="true" />
          <div className="min-w-0 flex-1">
            <p className="text-sm font-medium break-all">{name}</p>
            {uploading ? (
              <div className="mt-1.5">
                <div
                  className="h-1.5 w-full overflow-hidden rounded-full bg-muted"
                  role="progressbar"
                  aria-label="Upload progress"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={progress ?? 0}
                >
                  <div className="h-full bg-gold transition-all" style={{ width: `${progress ?? 0}%` }} />
                </div>
                <p className="mt-1 text-xs text-muted-foreground">Uploading... {progress}%</p>
              </div>
            ) : (
              <p className="text-xs text-green-700 dark:text-green-400">Uploaded</p>
            )}
          </div>
          <Button type="button" variant="ghost" size="icon" onClick={clear} disabled={uploading || disabled} aria-label="Remove artwork">
            <X />
          </Button>
        </div>
      ) : (
        <Button type="button" variant="outline" onClick={() => input.current?.click()} disabled={disabled}>
          <Upload /> Choose file
        </Button>
      )}
      {error ? (
        <p id="order-artwork-error" role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
