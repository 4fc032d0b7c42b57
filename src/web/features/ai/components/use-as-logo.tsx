import { useState } from 'react';
import { Link } from 'react-router';
import { BadgeCheck, Stamp } from 'lucide-react';
import { postUploadLogo } from '#shared/contracts/uploads';
import { putProfile } from '#shared/contracts/profile';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { ApiError } from '#web/lib/api';
import { callEndpoint, uploadToEndpoint } from '#web/lib/endpoint';
import { toast } from '#web/lib/toast';
import { aiErrorText } from '#web/features/ai/api';

/**
 * "Use as my logo" (issue 37): the edited image becomes the profile's (and so the card's) logo
 * through the ordinary logo upload (POST /api/upload/logo: type sniffed, re-encoded in the
 * sandboxed lane), then saved on the profile. A toast confirms it and a link leads to the designer.
 */
export function UseAsLogo({ imageUrl, fileName }: { imageUrl: string; fileName: string }) {
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');

  const use = async () => {
    setState('busy');
    try {
      const res = await fetch(imageUrl, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`The edited image could not be read (HTTP ${res.status}).`);
      const file = new File([await res.blob()], fileName, { type: 'image/png' });
      const { url } = await uploadToEndpoint(postUploadLogo, file);
      const saved = await callEndpoint(putProfile, { body: { logoUrl: url } });
      if (saved.logoUrl !== url) {
        setState('idle');
        toast({ title: 'Logo not changed', description: 'Your team manages the logo on your card.', variant: 'destructive' });
        return;
      }
      setState('done');
      toast({ title: 'Logo updated', description: 'Your card and profile now use this logo.' });
    } catch (e) {
      setState('idle');
      const noProfile = e instanceof ApiError && e.status === 400 && !!e.body?.errors?.fullName;
      toast({
        title: 'Could not use this logo',
        description: noProfile ? 'Create your profile first (your name is needed), then use this logo.' : aiErrorText(e),
        variant: 'destructive',
      });
    }
  };

  if (state === 'done')
    return (
      <p className="inline-flex flex-wrap items-center gap-2 text-sm" role="status" data-testid="logo-used">
        <BadgeCheck aria-hidden="true" className="size-4 text-green-600" /> This is now your logo.
        <Link to="/design" className="font-medium text-gold underline underline-offset-4">
          Open the designer
        </Link>
      </p>
    );
  return (
    <Button type="button" variant="gold" onClick={use} disabled={state === 'busy'} data-testid="use-as-logo">
      {state === 'busy' ? <Spinner className="size-4" label="Saving your logo" /> : <Stamp aria-hidden="true" />} Use as my logo
    </Button>
  );
}
