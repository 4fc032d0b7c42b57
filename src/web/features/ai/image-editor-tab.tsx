import { useEffect, useRef, useState } from 'react';
import { Download, ImageUp, Wand2 } from 'lucide-react';
import { AI_IMAGE_MAX_BYTES } from '#shared/catalogue';
import type { RemoveBackgroundResponse } from '#shared/schemas/ai';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/lib/toast';
import { cn } from '#web/lib/utils';
import { aiErrorText, useRemoveBackground } from './api';
import { UseAsLogo } from '#web/features/ai/components/use-as-logo';

const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,image/avif';
const BACKDROPS = {
  checker: { label: 'Transparent', style: { backgroundColor: '#ffffff', backgroundImage: 'conic-gradient(#d4d4d8 25%, #ffffff 0 50%, #d4d4d8 0 75%, #ffffff 0)', backgroundSize: '16px 16px' } },
  white: { label: 'White', style: { backgroundColor: '#ffffff' } },
  black: { label: 'Black', style: { backgroundColor: '#0b0b0c' } },
  gold: { label: 'Gold', style: { backgroundColor: '#d4af37' } },
} as const;
type Backdrop = keyof typeof BACKDROPS;

const baseName = (name: string) => (name.replace(/\.[^.]+$/, '').replace(/[^\w.-]+/g, '-').slice(0, 60) || 'image');

export function ImageEditorTab() {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [result, setResult] = useState<RemoveBackgroundResponse | null>(null);
  const [progress, setProgress] = useState(0);
  const [backdrop, setBackdrop] = useState<Backdrop>('checker');
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const m = useRemoveBackground();

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const choose = (f: File | undefined | null) => {
    if (!f) return;
    if (!f.type.startsWith('image/') || f.type === 'image/svg+xml') {
      const description = f.type === 'image/svg+xml' ? 'SVG files are vector art: export your logo as a PNG to remove its background.' : 'Please choose an image file (PNG, JPG, WebP or GIF).';
      toast({ title: 'Invalid file type', description, variant: 'destructive' });
      if (input.current) input.current.value = '';
      return;
    }
    if (f.size > AI_IMAGE_MAX_BYTES) {
      toast({ title: 'File too large', description: 'Maximum file size is 10MB', variant: 'destructive' });
      if (input.current) input.current.value = '';
      return;
    }
    setFile(f);
    setResult(null);
    setProgress(0);
    setPreview(URL.createObjectURL(f));
  };

  const remove = () => {
    if (!file) {
      toast({ title: 'No image selected', description: 'Please choose an image first.', variant: 'destructive' });
      return;
    }
    setProgress(0);
    m.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: (data) => {
          setResult(data);
          toast({ title: 'Background removed!', description: 'Use it as your logo or download it below.' });
        },
        onError: (err) => toast({ title: 'Error processing image', description: aiErrorText(err), variant: 'destructive' }),
      },
    );
  };

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>Remove a background</CardTitle>
          <CardDescription>
            Works best on logos, product shots and studio photos with a plain, even background. PNG, JPG, WebP or GIF, up to 10MB. The result is a PNG with a
            transparent background.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <label
            htmlFor="ai-image"
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(e) => {
              e.preventDefault();
              setDragging(false);
              choose(e.dataTransfer.files?.[0]);
            }}
            className={cn(
              'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed border-border p-8 text-center transition-colors hover:bg-accent',
              dragging && 'border-gold bg-accent',
            )}
          >
            <ImageUp aria-hidden="true" className="size-8 text-gold" />
            <span className="font-medium">{file ? file.name : 'Choose an image or drop it here'}</span>
            <span className="text-xs text-muted-foreground">{file ? `${(file.size / 1024 / 1024).toFixed(2)} MB` : 'PNG, JPG, WebP, GIF · max 10MB'}</span>
          </label>
          <input id="ai-image" ref={input} type="file" accept={ACCEPT} className="sr-only" onChange={(e) => choose(e.target.files?.[0])} data-testid="ai-image-input" />
          <div className="flex flex-wrap items-center gap-3">
            <Button type="button" variant="gold" onClick={remove} disabled={m.isPending}>
              {m.isPending ? <Spinner className="size-4" label="Removing background" /> : <Wand2 aria-hidden="true" />}
              {m.isPending ? (progress < 1 ? `Uploading ${Math.round(progress * 100)}%` : 'Removing background...') : 'Remove Background'}
            </Button>
            {result ? <UseAsLogo key={result.processedImageUrl} imageUrl={result.processedImageUrl} fileName={`${baseName(file?.name ?? 'logo')}-no-background.png`} /> : null}
            {result ? (
              <Button asChild variant="outline">
                <a href={result.processedImageUrl} download={`${baseName(file?.name ?? 'image')}-no-background.png`} data-testid="download-result">
                  <Download aria-hidden="true" /> Download PNG
                </a>
              </Button>
            ) : null}
          </div>
        </CardContent>
      </Card>

      {preview ? (
        <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
          <figure className="space-y-2">
            <figcaption className="text-sm font-semibold">Before</figcaption>
            <div className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded-lg border border-border bg-muted">
              <img src={preview} alt="Original image" className="max-h-full max-w-full object-contain" />
            </div>
          </figure>
          <figure className="space-y-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <figcaption className="text-sm font-semibold">After</figcaption>
              <div role="radiogroup" aria-label="Preview background" className="flex gap-1">
                {(Object.keys(BACKDROPS) as Backdrop[]).map((b) => (
                  <button
                    key={b}
                    type="button"
                    role="radio"
                    aria-checked={backdrop === b}
                    aria-label={`${BACKDROPS[b].label} background`}
                    title={BACKDROPS[b].label}
                    onClick={() => setBackdrop(b)}
                    className={cn('size-6 cursor-pointer rounded border border-border', backdrop === b && 'ring-2 ring-ring ring-offset-1')}
                    style={BACKDROPS[b].style}
                  />
                ))}
              </div>
            </div>
            <div className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded-lg border border-border" style={BACKDROPS[backdrop].style} data-testid="result-frame">
              {result ? (
                <img src={result.processedImageUrl} alt="Image with the background removed" className="max-h-full max-w-full object-contain" data-testid="result-image" />
              ) : m.isPending ? (
                <Spinner className="size-8 text-muted-foreground" label="Removing background" />
              ) : (
                <span className="rounded bg-background/80 px-3 py-1 text-sm text-muted-foreground">Press Remove Background</span>
              )}
            </div>
          </figure>
        </div>
      ) : null}
    </div>
  );
}
