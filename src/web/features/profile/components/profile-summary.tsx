import { Link } from 'react-router';
import { UserRound } from 'lucide-react';
import { LINK_TYPE_LABELS, type Profile } from '#shared/schemas/profile';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { ShareActions } from './share-actions';
import { formatPhone } from '#shared/profile/phone';

/** Dashboard tab Profile: the profile's details and links, with edit and share actions. */
export function ProfileSummary({ profile }: { profile: Profile | null }) {
  if (!profile) {
    return (
      <Card className="p-6">
        <p className="text-sm text-muted-foreground">You have not created a profile yet.</p>
        <Button asChild className="mt-4">
          <Link to="/profile">Create Profile</Link>
        </Button>
      </Card>
    );
  }
  const rows: Array<[string, string | null]> = [
    ['Name', profile.fullName],
    ['Job title', profile.jobTitle],
    ['Company', profile.companyName],
    ['Email', profile.email],
    ['Phone', profile.phoneNumber ? formatPhone(profile.phoneNumber) : null],
    ['Address', profile.address],
    ['Profile style', profile.profileTemplate[0].toUpperCase() + profile.profileTemplate.slice(1)],
  ];
  return (
    <Card className="space-y-6 p-6">
      <div className="flex flex-wrap items-center gap-4">
        {profile.customPhotoUrl ? (
          <img src={profile.customPhotoUrl} alt="" className="size-16 rounded-full object-cover" />
        ) : (
          <span className="flex size-16 items-center justify-center rounded-full bg-muted">
            <UserRound className="size-8 text-muted-foreground" aria-hidden="true" />
          </span>
        )}
        <div>
          <h2 className="text-xl font-semibold">{profile.fullName}</h2>
          <p className="text-sm text-muted-foreground">{profile.jobTitle ?? 'No job title yet'}</p>
        </div>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt className="text-xs uppercase tracking-wide text-muted-foreground">{k}</dt>
            <dd className="text-sm">{v || '—'}</dd>
          </div>
        ))}
      </dl>
      <div>
        <h3 className="mb-2 text-sm font-semibold">Links</h3>
        {profile.links.length ? (
          <ul className="space-y-1 text-sm">
            {profile.links.map((l) => (
              <li key={l.id}>
                <span className="font-medium">{LINK_TYPE_LABELS[l.linkType]}:</span>{' '}
                <a href={l.url} target="_blank" rel="noopener noreferrer" className="break-all underline underline-offset-2">
                  {l.url}
                </a>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No links yet.</p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button asChild>
          <Link to="/profile">Edit Profile</Link>
        </Button>
        <ShareActions profile={profile} />
      </div>
    </Card>
  );
}
