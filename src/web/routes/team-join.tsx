import { Link, useNavigate, useParams } from 'react-router';
import { Users } from 'lucide-react';
import { TEAM_ROLE_LABELS } from '#shared/schemas/team';
import { TEAM_PATH } from '#shared/routes';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { useNoIndex, usePageTitle } from '#web/lib/use-page-title';
import { useAuth } from '#web/lib/session/use-auth';
import { useAcceptInvite, useJoinInfo } from '#web/features/team/api';
import { done, failed } from '#web/features/team/notify';
import { JoinNewAccountForm } from '#web/features/team/components/join-new-account-form';

/** /team/join/{token}: the invitation link, for a new or an existing account. */
export default function TeamJoinPage() {
  usePageTitle('Join your team');
  useNoIndex();
  const { token = '' } = useParams();
  const { user, isLoading: authLoading } = useAuth();
  const info = useJoinInfo(token);
  const accept = useAcceptInvite();
  const navigate = useNavigate();

  let body;
  if (info.isLoading || authLoading) body = <Skeleton className="h-24 w-full" />;
  else if (info.error || !info.data) body = <p role="alert">{errorMessage(info.error, 'This invitation is no longer valid. Ask your team admin for a new one.')}</p>;
  else if (!user) body = <JoinNewAccountForm token={token} info={info.data} />;
  else
    body = (
      <div className="space-y-3">
        {user.email.toLowerCase() !== info.data.email.toLowerCase() ? (
          <p role="alert" className="text-destructive">
            This invitation was sent to {info.data.email}, and you are signed in as {user.email}. Sign in with the invited address to accept it.
          </p>
        ) : null}
        <Button
          variant="gold"
          disabled={accept.isPending}
          onClick={() =>
            accept
              .mutateAsync(token)
              .then(() => {
                done(`Welcome to ${info.data!.teamName}`, 'Your profile now carries the team brand.');
                navigate(TEAM_PATH);
              })
              .catch((e) => failed(e, 'Could not join the team'))
          }
        >
          Accept and join {info.data.teamName}
        </Button>
      </div>
    );

  return (
    <section className="mx-auto max-w-xl px-4 py-12">
      <Card>
        <CardHeader>
          {/* the page's only heading, so it is the h1 (a card title is an h3) */}
          <h1 className="flex items-center gap-2 text-lg font-semibold leading-tight">
            <Users aria-hidden="true" /> {info.data ? `Join ${info.data.teamName}` : 'Team invitation'}
          </h1>
          {info.data ? (
            <CardDescription>
              {info.data.invitedBy ? `${info.data.invitedBy} invited you` : 'You are invited'} as {TEAM_ROLE_LABELS[info.data.role].toLowerCase()}. The link works until{' '}
              {new Date(info.data.expiresAt).toLocaleDateString('en-US', { month: 'long', day: 'numeric' })}.
            </CardDescription>
          ) : null}
        </CardHeader>
        <CardContent>{body}</CardContent>
      </Card>
      <p className="mt-4 text-center text-sm text-muted-foreground">
        <Link to="/" className="underline">
          Metal Cards NYC
        </Link>
      </p>
    </section>
  );
}
