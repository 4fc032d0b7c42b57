import { useEffect, useState } from 'react';
import { AtSign, Copy } from 'lucide-react';
import type { Profile } from '#shared/schemas/profile';
import { HANDLE_MAX, HANDLE_REDIRECT_DAYS, handlePath, handleProblem } from '#shared/profile/handle';
import { Button } from '#web/components/ui/button';
import { FormField, Input } from '#web/components/ui/input';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { copyText } from '#web/lib/clipboard';
import { toast } from '#web/lib/toast';
import { useSaveHandle } from '#web/features/profile/api';

/**
 * The profile's short address `/@{handle}` (decision 37-04): choose, change or remove it. The
 * rules are checked as you type (the server's, `#shared/profile/handle`); whether it is free is the
 * server's answer, shown beside the field. QR codes and printed cards keep the permanent `/p/{id}`.
 */
export function HandleBox({ profile }: { profile: Profile }) {
  const save = useSaveHandle();
  const [value, setValue] = useState(profile.handle ?? '');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setValue(profile.handle ?? ''), [profile.handle]);
  const typed = value.trim().replace(/^@/, '').toLowerCase();
  const changed = typed !== (profile.handle ?? '');
  const origin = window.location.origin;
  const shortUrl = profile.handle ? origin + handlePath(profile.handle) : null;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const problem = typed ? handleProblem(typed) : null;
    setError(problem);
    if (problem || !changed) return;
    try {
      const saved = await save.mutateAsync(typed || null);
      toast({ title: saved.handle ? 'Short address saved' : 'Short address removed', description: saved.handle ? origin + handlePath(saved.handle) : undefined });
    } catch (err) {
      setError(fieldErrors(err).handle ?? errorMessage(err, 'Please try again.'));
    }
  }
  async function copy() {
    if (!shortUrl) return;
    try {
      await copyText(shortUrl);
      toast({ title: 'Link copied!', description: shortUrl });
    } catch {
      toast({ title: "Couldn't copy link", description: shortUrl, variant: 'destructive' });
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-2" aria-label="Short address">
      <FormField id="handle" label="Your short address" error={error ?? undefined}>
        <div className="flex flex-col gap-2 sm:flex-row">
          <div className="flex min-w-0 flex-1 items-center rounded-md border border-input bg-background pl-3 focus-within:ring-2 focus-within:ring-ring">
            <span className="shrink-0 text-sm text-muted-foreground" aria-hidden="true">
              {origin.replace(/^https?:\/\//, '')}/@
            </span>
            <Input
              id="handle"
              className="border-0 pl-0.5 shadow-none focus-visible:ring-0"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              maxLength={HANDLE_MAX + 1}
              placeholder="your-name"
              value={value}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'handle-error' : 'handle-help'}
              onChange={(ev) => {
                setValue(ev.target.value);
                if (error) setError(null);
              }}
            />
          </div>
          <Button type="submit" disabled={save.isPending || !changed}>
            <AtSign aria-hidden="true" />
            {save.isPending ? 'Saving...' : typed || !profile.handle ? 'Save address' : 'Remove address'}
          </Button>
        </div>
      </FormField>
      <p id="handle-help" className="text-xs text-muted-foreground">
        3 to 30 letters, digits, "-" or "_". After a change the old address keeps working for {HANDLE_REDIRECT_DAYS} days. Your QR code and printed cards keep the
        permanent link below.
      </p>
      {shortUrl ? (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <a className="font-mono underline" href={handlePath(profile.handle!)} target="_blank" rel="noopener">
            {shortUrl}
          </a>
          <Button type="button" size="sm" variant="outline" onClick={() => void copy()}>
            <Copy aria-hidden="true" />
            Copy short link
          </Button>
        </p>
      ) : null}
    </form>
  );
}
