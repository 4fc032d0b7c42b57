import { useId, useState, type FormEvent } from 'react';
import { API_SCOPE_LABELS, PERSONAL_SCOPES, TEAM_SCOPES, TOKEN_EXPIRY_DAYS, type ApiScope, type TokenCreateResponse } from '#shared/schemas/developer';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { Checkbox } from '#web/components/ui/checkbox';
import { FormField, Input, Label, Select } from '#web/components/ui/input';
import { useCreateToken } from '#web/features/developer/api';
import { useAuth } from '#web/lib/session/use-auth';
import { PasswordInput } from '#web/components/password-input';
import { OWNER_PROOF_MESSAGES } from '#shared/schemas/auth';

/** Name, scopes and expiry of a new token; `teamAdmin` offers a token for the caller's team. */
export function CreateTokenForm({ teamAdmin, onCreated }: { teamAdmin: boolean; onCreated: (created: TokenCreateResponse) => void }) {
  const create = useCreateToken();
  const [name, setName] = useState('');
  const [team, setTeam] = useState(false);
  const [scopes, setScopes] = useState<ApiScope[]>(['leads:read']);
  const [expiry, setExpiry] = useState('90');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { user } = useAuth();
  // a checkbox is a button (Radix): it is named by its label's id, as a button is not by `for` alone
  const uid = useId();
  const offered = team ? TEAM_SCOPES : PERSONAL_SCOPES;

  function toggle(scope: ApiScope, on: boolean) {
    setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    try {
      const created = await create.mutateAsync({ name, scopes: scopes.filter((s) => offered.includes(s)), expiresInDays: expiry === 'never' ? null : (Number(expiry) as 7), team, password });
      setName('');
      setPassword('');
      onCreated(created);
    } catch (err) {
      setErrors(fieldErrors(err));
      toast({ title: 'Token not created', description: errorMessage(err), variant: 'destructive' });
    }
  }

  // a token is lasting access to the account: only a proven address may create one (issue 33)
  if (user && !user.emailVerified) {
    return (
      <p role="note" className="rounded-md border border-border bg-muted/40 p-3 text-sm" data-testid="token-verify-first">
        {OWNER_PROOF_MESSAGES.verifyFirst}
      </p>
    );
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Create an access token" noValidate>
      <FormField id="token-name" label="Token name" error={errors.name} hint="What it is for, e.g. CRM sync" required>
        <Input id="token-name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} />
      </FormField>
      {teamAdmin ? (
        <div className="flex items-center gap-2">
          <Checkbox
            id="token-team"
            aria-labelledby={`${uid}-team`}
            checked={team}
            onCheckedChange={(v) => {
              setTeam(v === true);
              setScopes(v === true ? ['team:read'] : ['leads:read']);
            }}
          />
          <Label id={`${uid}-team`} htmlFor="token-team">A token for my team (team scopes, acts as me within the team)</Label>
        </div>
      ) : null}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Scopes</legend>
        {offered.map((s, i) => (
          <div key={s} className="flex items-start gap-2">
            <Checkbox id={`${uid}-scope-${i}`} aria-labelledby={`${uid}-scope-${i}-label`} className="mt-0.5" checked={scopes.includes(s)} onCheckedChange={(v) => toggle(s, v === true)} />
            <Label id={`${uid}-scope-${i}-label`} htmlFor={`${uid}-scope-${i}`} className="break-words">
              <code>{s}</code> · {API_SCOPE_LABELS[s]}
            </Label>
          </div>
        ))}
        {errors.scopes ? (
          <p role="alert" className="text-sm text-destructive">
            {errors.scopes}
          </p>
        ) : null}
      </fieldset>
      <FormField id="token-expiry" label="Expires" error={errors.expiresInDays}>
        <Select id="token-expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
          {TOKEN_EXPIRY_DAYS.map((d) => (
            <option key={d} value={String(d)}>
              in {d} days
            </option>
          ))}
          <option value="never">never (until revoked)</option>
        </Select>
      </FormField>
      <FormField
        id="token-password"
        label="Your password, to confirm this token"
        error={errors.password}
        hint="A token can use your account without signing in, so we ask for your password to make sure it is you. We e-mail you about every new token."
        required
      >
        <PasswordInput id="token-password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} aria-invalid={!!errors.password} />
      </FormField>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Creating...' : 'Create token'}
      </Button>
    </form>
  );
}
