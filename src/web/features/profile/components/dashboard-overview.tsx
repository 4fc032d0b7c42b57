import { Link } from 'react-router';
import { CheckCircle2, CreditCard, Eye, XCircle } from 'lucide-react';
import { isProfileComplete, type Profile, type UserCard, type VisitStats } from '#shared/schemas/profile';
import { StatTiles } from '#web/components/stat-tile';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { CardFaces } from './card-faces';
import { ShareActions } from './share-actions';

/** The dashboard's figure rows: three tiles side by side from medium screens on. */
export const SUMMARY_GRID = 'grid-cols-1 gap-4 md:grid-cols-3 lg:grid-cols-3';

/** Dashboard tab Overview: profile, card and views at a glance, then the next step to take. */
export function DashboardOverview({ profile, cards, stats }: { profile: Profile | null; cards: UserCard[]; stats: VisitStats | undefined }) {
  const complete = isProfileComplete(profile);
  const card = cards[0];
  return (
    <div className="space-y-6">
      <StatTiles
        className={SUMMARY_GRID}
        tiles={[
          {
            testId: 'profile-status',
            label: 'Profile status',
            value: complete ? 'Complete' : 'Incomplete',
            muted: !complete,
            Icon: complete ? CheckCircle2 : XCircle,
            iconClassName: complete ? 'text-green-600' : 'text-muted-foreground',
          },
          { testId: 'card-status', label: 'Card status', value: card ? 'Created' : 'Not Created', muted: !card, Icon: CreditCard, iconClassName: 'text-muted-foreground' },
          { testId: 'profile-views', label: 'Profile views', value: String(stats?.totalVisits ?? 0), Icon: Eye, iconClassName: 'text-muted-foreground' },
        ]}
      />
      {!profile ? (
        <Card className="flex flex-col items-start gap-3 p-6">
          <h2 className="text-lg font-semibold">Create your digital profile</h2>
          <p className="text-sm text-muted-foreground">Your profile is what people see when they scan your metal card.</p>
          <Button asChild>
            <Link to="/profile">Create Profile</Link>
          </Button>
        </Card>
      ) : complete && card ? (
        <Card className="space-y-4 p-6">
          <h2 className="text-lg font-semibold">Your card</h2>
          <CardFaces card={card} profile={profile} />
          <ShareActions profile={profile} />
        </Card>
      ) : (
        <Card className="flex flex-col items-start gap-3 p-6">
          <h2 className="text-lg font-semibold">{complete ? 'Design your metal card' : 'Finish your profile'}</h2>
          <p className="text-sm text-muted-foreground">
            {complete ? 'Your profile is ready. Pick a template and submit your card design.' : 'Add your name, job title and phone number to complete your profile.'}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <Link to={complete ? '/design' : '/profile'}>{complete ? 'Design Your Card' : 'Edit Profile'}</Link>
            </Button>
            <ShareActions profile={profile} />
          </div>
        </Card>
      )}
    </div>
  );
}
