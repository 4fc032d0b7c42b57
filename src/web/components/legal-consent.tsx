import { Link } from 'react-router';
import { cn } from '#web/lib/utils';

/**
 * The line under every button that accepts the shop's terms (decision 37-01): signing up, joining
 * a team, placing an order, confirming a checkout, sending a design. One wording, both documents
 * linked. `action` completes "By ... you accept": "creating an account", "placing the order".
 */
export function LegalConsent({ action, testId, className }: { action: string; testId?: string; className?: string }) {
  const link = 'underline underline-offset-4 hover:text-foreground';
  return (
    <p className={cn('text-xs text-muted-foreground', className ?? 'text-center')} data-testid={testId}>
      By {action} you accept our{' '}
      <Link to="/terms" className={link}>
        Terms of Service
      </Link>
      ; our{' '}
      <Link to="/privacy" className={link}>
        Privacy Policy
      </Link>{' '}
      says what we keep.
    </p>
  );
}
