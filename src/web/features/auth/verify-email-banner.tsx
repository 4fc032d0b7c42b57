import { useEffect, useState } from 'react';
import { Mail } from 'lucide-react';
import { VERIFY_MESSAGES, VERIFY_RESEND_SECONDS } from '#shared/auth-rules';
import { Button } from '#web/components/ui/button';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useResendVerification } from './api';

/** The banner asking a signed-in account to verify its address, with a throttled "Resend" action. */
export default function VerifyEmailBanner({ email }: { email: string }) {
  const resend = useResendVerification();
  // after a press the button waits as long as the server would (it answers 429 sooner anyway)
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (waitUntil <= now) return;
    const id = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(id);
  }, [waitUntil, now]);
  const left = Math.max(0, Math.ceil((waitUntil - now) / 1000));

  async function onResend() {
    try {
      const res = await resend.mutateAsync();
      toast({ title: 'Verification e-mail sent', description: res.message });
    } catch (err) {
      toast({ title: 'Could not send the link', description: errorMessage(err, VERIFY_MESSAGES.tooSoon), variant: 'destructive' });
    } finally {
      const t = Date.now();
      setNow(t);
      setWaitUntil(t + VERIFY_RESEND_SECONDS * 1000);
    }
  }

  return (
    <section
      aria-label="Email verification"
      data-testid="verify-email-banner"
      className="border-b border-amber-500/40 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-center gap-x-3 gap-y-1 text-center">
        <Mail className="size-4 shrink-0" aria-hidden="true" />
        <p>
          {VERIFY_MESSAGES.banner} <span className="font-medium break-all">({email})</span>
        </p>
        <Button type="button" size="sm" variant="outline" onClick={onResend} disabled={resend.isPending || left > 0}>
          {resend.isPending ? 'Sending...' : left > 0 ? `Resend (${left}s)` : 'Resend'}
        </Button>
      </div>
    </section>
  );
}
