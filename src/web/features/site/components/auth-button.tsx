import { Link } from 'react-router';
import { ArrowRight } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { useAuth } from '#web/lib/session/use-auth';

/** The hero's and Complete Solution's primary button: depends on sign-in, keeps its place while loading. */
export function AuthButton({ signedIn, signedOut, size = 'lg' }: { signedIn: { to: string; label: string }; signedOut: { to: string; label: string }; size?: 'lg' | 'default' }) {
  const { user, isLoading } = useAuth();
  // while loading, an invisible copy of the signed-out button holds its exact place (most visitors
  // are signed out, so the row keeps its wrapping and nothing below it moves)
  if (isLoading)
    return (
      <Button asChild variant="gold" size={size} className="invisible">
        <span aria-hidden="true">
          {signedOut.label}
          <ArrowRight aria-hidden="true" />
        </span>
      </Button>
    );
  const target = user ? signedIn : signedOut;
  return (
    <Button asChild variant="gold" size={size}>
      <Link to={target.to} data-testid="primary-cta">
        {target.label}
        <ArrowRight aria-hidden="true" />
      </Link>
    </Button>
  );
}
