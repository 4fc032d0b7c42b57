import { ArrowRight, UserRound } from 'lucide-react';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { useQueryClient } from '@tanstack/react-query';
import type { Profile } from '#shared/schemas/profile';
import { PROFILE_KEY } from '#web/features/profile/api';
import { ImageUploader } from '#web/features/profile/components/image-uploader';
import { NO_LOCKS, type FieldLocks } from '#web/components/locked-input';
import { LOCKED_FIELD_MESSAGE } from '#shared/team/brand';
import { putProfile } from '#shared/contracts/profile';
import { callEndpoint } from '#web/lib/endpoint';
import { LogoContrastWarning } from './logo-contrast-warning';

/** Shown on a tab that needs a profile, with a button to the profile form. */
export function NeedsProfile({ onGo, what }: { onGo: () => void; what: string }) {
  return (
    <Card className="flex flex-col items-center gap-4 p-10 text-center" data-testid="no-profile">
      <UserRound className="size-10 text-muted-foreground" aria-hidden="true" />
      <h2 className="text-xl font-semibold">Complete your profile first</h2>
      <p className="max-w-md text-sm text-muted-foreground">Fill in your profile information to {what}.</p>
      <Button type="button" onClick={onGo}>
        Complete Profile
        <ArrowRight aria-hidden="true" />
      </Button>
    </Card>
  );
}

/** Profile tab Media: photo, logo and banner logo uploads, each saved to the profile at once. */
export function MediaTab({ profile, onContinue, locks = NO_LOCKS }: { profile: Profile; onContinue: () => void; locks?: FieldLocks }) {
  const qc = useQueryClient();
  // a logo the team manages (issue 21) is shown, not uploaded
  const lockedLogo = locks('logoUrl');
  async function setImage(field: 'customPhotoUrl' | 'logoUrl' | 'bannerLogoUrl', url: string | null) {
    try {
      const saved = await callEndpoint(putProfile, { body: { [field]: url } });
      qc.setQueryData(PROFILE_KEY, saved);
    } catch (err) {
      toast({ title: 'Error updating profile', description: errorMessage(err), variant: 'destructive' });
      throw err;
    }
  }
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        <ImageUploader
          kind="profile-image"
          label="Profile photo"
          round
          currentUrl={profile.customPhotoUrl}
          onUploaded={(url) => setImage('customPhotoUrl', url)}
          onRemove={() => setImage('customPhotoUrl', null)}
        />
        {lockedLogo ? (
          <div className="flex flex-col items-center gap-3 rounded-xl border border-border p-5 text-center" data-testid="uploader-logo-locked">
            <span className="text-sm font-medium">Company logo</span>
            {lockedLogo.value ? <img src={lockedLogo.value} alt="Team logo" className="size-28 rounded-lg object-contain" /> : null}
            <p className="text-xs text-muted-foreground" data-testid="locked-field">
              {LOCKED_FIELD_MESSAGE}
            </p>
          </div>
        ) : (
          <ImageUploader kind="logo" label="Company logo" currentUrl={profile.logoUrl} onUploaded={(url) => setImage('logoUrl', url)} onRemove={() => setImage('logoUrl', null)} />
        )}
        {lockedLogo ? (
          // the header's banner logo follows the team's locked logo (issue 33)
          <div className="flex flex-col items-center gap-3 rounded-xl border border-border p-5 text-center" data-testid="uploader-banner-locked">
            <span className="text-sm font-medium">Banner logo</span>
            {lockedLogo.value ? <img src={lockedLogo.value} alt="Team logo" className="size-28 rounded-lg object-contain" /> : null}
            <p className="text-xs text-muted-foreground" data-testid="locked-field">
              {LOCKED_FIELD_MESSAGE}: your page shows the team logo.
            </p>
          </div>
        ) : (
          <ImageUploader
            kind="banner-logo"
            label="Banner logo"
            currentUrl={profile.bannerLogoUrl}
            onUploaded={(url) => setImage('bannerLogoUrl', url)}
            onRemove={() => setImage('bannerLogoUrl', null)}
          />
        )}
      </div>
      <p className="text-sm text-muted-foreground">
        The banner logo shows on the Classic and Modern profile styles; the company logo on Corporate and in your contact card.
      </p>
      <LogoContrastWarning
        layout={profile.profileTemplate}
        logoUrl={lockedLogo?.value || profile.logoUrl}
        bannerLogoUrl={lockedLogo?.value || profile.bannerLogoUrl}
        headerColour={profile.brand?.primaryColor}
      />
      <div className="flex justify-end">
        <Button type="button" onClick={onContinue}>
          Continue to Share Profile
          <ArrowRight aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
