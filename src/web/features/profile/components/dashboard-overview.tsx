import { Link } from 'react-router';
import { CheckCircle2, CreditCard, Eye, XCircle } from 'lucide-react';
import { orderStepLabel } from '#shared/catalogue';
import { isProfileComplete, type Profile, type UserCard, type VisitStats } from '#shared/schemas/profile';
import { StatTiles } from '#web/components/stat-tile';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { CardFaces } from './card-faces';
import { ShareActions } from './share-actions';

/** The dashboard's figure rows: three tiles side by side from medium screens on. */
export const SUMMARY_GRID = 'grid-cols-1 gap-4 md:grid-cols-3 lg:grid-cols-3';

/** The order of a card, as far as the overview needs it (from GET /api/orders/mine). */
type CardOrder = { id: number; status: string; deliveryOption: string };

/**
 * Where the newest card is, in the words used elsewhere (decision 37-09): its order's status once
 * it has one ("Shipped", "Ready for pickup", "Delivered"), else its design review ("In review",
 * "Approved", "Needs changes"). Never "Created" for a card that is long on its way.
 */
function cardStatusText(card: UserCard | undefined, orders: CardOrder[] | undefined): string {
  if (!card) return 'Not created';
  const order = card.orderId !== null ? orders?.find((o) => o.id === card.orderId) : undefined;
  if (order) return orderStepLabel(order.status, order.deliveryOption);
  if (card.status === 'rejected') return 'Needs changes';
  return card.status === 'approved' ? 'Approved' : 'In review';
}

/** Dashboard tab Overview: profile, card and views at a glance, then the next step to take. */
export function DashboardOverview({ profile, cards, stats, orders }: { profile: Profile | null; cards: UserCard[]; stats: VisitStats | undefined; orders?: CardOrder[] }) {
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
          { testId: 'card-status', label: 'Card status', value: cardStatusText(card, orders), muted: !card, Icon: CreditCard, iconClassName: 'text-muted-foreground' },
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
