import { LegalConsent } from '#web/components/legal-consent';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { PasswordInput, ariaFor } from '#web/components/password-input';
import { Button } from '#web/components/ui/button';
import { FormField, Input } from '#web/components/ui/input';
import { TEAM_PATH } from '#shared/routes';
import type { TeamJoinInfo } from '#shared/schemas/team';
import { fieldErrors } from '#web/lib/api';
import { useJoinWithNewAccount } from '#web/features/team/api';
import { done, failed } from '#web/features/team/notify';

/**
 * The invitation page for someone without an account (issue 37, decision 37-09): the invitation
 * already knows the address (and proved it: the link came to that mailbox) and usually the name,
 * so only a password is asked, with the name only when the invitation has none. No username, no
 * second e-mail to confirm the address.
 */
export function JoinNewAccountForm({ token, info }: { token: string; info: TeamJoinInfo }) {
  const join = useJoinWithNewAccount(token);
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [fullName, setFullName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const here = `/team/join/${token}`;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (password.length < 6) local.password = 'Password must be at least 6 characters long.';
    if (!info.fullName && fullName.trim().length < 2) local.fullName = 'Please enter your full name';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      await join.mutateAsync(info.fullName ? { password } : { password, fullName: fullName.trim() });
      done(`Welcome to ${info.teamName}`, 'Your account is ready and your profile carries the team brand.');
      navigate(TEAM_PATH);
    } catch (err) {
      setErrors(fieldErrors(err));
      failed(err, 'Could not create your account');
    }
  }

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Create your account and join">
        <p>
          Your account will use <strong>{info.email}</strong>
          {info.fullName ? (
            <>
              {' '}
              and the name <strong>{info.fullName}</strong>
            </>
          ) : null}
          . Choose a password to finish.
        </p>
        {info.fullName ? null : (
          <FormField id="join-name" label="Your full name" required error={errors.fullName}>
            <Input id="join-name" autoComplete="name" value={fullName} onChange={(e) => setFullName(e.target.value)} {...ariaFor('join-name', errors.fullName)} />
          </FormField>
        )}
        <FormField id="join-password" label="Choose a password" required error={errors.password ?? errors.email}>
          <PasswordInput id="join-password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} {...ariaFor('join-password', errors.password ?? errors.email)} />
        </FormField>
        <LegalConsent action="creating an account" className="text-left" />
        <Button type="submit" variant="gold" disabled={join.isPending}>
          {join.isPending ? 'Creating your account…' : `Create account and join ${info.teamName}`}
        </Button>
      </form>
      <p className="text-sm">
        Already have an account?{' '}
        <Button variant="link" className="h-auto p-0 underline" onClick={() => navigate('/login', { state: { returnTo: here, email: info.email } })}>
          Log in to accept
        </Button>
      </p>
    </div>
  );
}
