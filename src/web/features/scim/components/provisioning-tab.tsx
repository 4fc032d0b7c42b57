import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { Copy } from 'lucide-react';
import {
  FIELD_RULES,
  FIELD_RULE_LABELS,
  SCIM_FIELD_LABELS,
  SCIM_PROFILE_FIELDS,
  type ScimFieldRules,
  type ScimSettings,
} from '#shared/schemas/scim';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { STACKED_CELL, STACKED_HEAD, STACKED_ROW } from '#web/components/ui/stacked-table';
import { cn } from '#web/lib/utils';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useCreateScimToken, useRevokeScimToken, useSaveScimSettings, useScimSettings, useScimTokens } from '#web/features/scim/api';

/** The connection details the identity provider is given (Entra ID: Tenant URL + Secret Token; Okta: SCIM connector base URL + Bearer). */
function Connection({ settings }: { settings: ScimSettings }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Directory provisioning (SCIM 2.0)</CardTitle>
        <CardDescription>
          Your identity provider (Microsoft Entra ID, Okta, Google Workspace through a SCIM connector) adds, updates and removes your people. Deactivating or deleting someone there
          offboards them here: their team cards show your company page, their leads stay with the team.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <div>
          <div className="font-medium">SCIM base URL (Entra ID: Tenant URL; Okta: SCIM connector base URL)</div>
          <div className="flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-muted px-2 py-1" data-testid="scim-base-url">
              {settings.baseUrl}
            </code>
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() => {
                void navigator.clipboard?.writeText(settings.baseUrl).then(() => toast({ title: 'Copied' }));
              }}
            >
              <Copy /> Copy
            </Button>
          </div>
        </div>
        <p>
          <span className="font-medium">Secret token (Entra ID: Secret Token; Okta: Bearer):</span> a team API token with the <code>scim</code> scope that you, the owner,
          create below (or in{' '}
          <Link to="/account" className="underline">
            Account → API tokens
          </Link>
          ).
        </p>
        <p className="text-muted-foreground">
          {settings.provisionedUsers} active directory {settings.provisionedUsers === 1 ? 'member' : 'members'}, {settings.groups} {settings.groups === 1 ? 'group' : 'groups'}
          {settings.lastActivityAt ? `; last change ${new Date(settings.lastActivityAt).toLocaleString('en-US')}` : '; nothing provisioned yet'}.
        </p>
      </CardContent>
    </Card>
  );
}

/** The owner's SCIM tokens: create one (password again; the secret is shown once), revoke. */
function Tokens() {
  const { data: tokens, isLoading } = useScimTokens();
  const create = useCreateScimToken();
  const revoke = useRevokeScimToken();
  const [name, setName] = useState('Directory provisioning');
  const [password, setPassword] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const nameId = useId();
  const passwordId = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">SCIM tokens</CardTitle>
        <CardDescription>Whoever holds a token can add and remove your team&apos;s members. Revoke one you no longer use.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {isLoading ? (
          <Skeleton className="h-10 w-full" />
        ) : tokens?.length ? (
          <ul className="divide-y rounded-md border" data-testid="scim-tokens">
            {tokens.map((t) => (
              <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 p-2">
                <span>
                  <span className="font-medium">{t.name}</span> <code className="text-xs">{t.prefix}…</code>{' '}
                  <span className="text-xs text-muted-foreground">{t.lastUsedAt ? `last used ${new Date(t.lastUsedAt).toLocaleString('en-US')}` : 'never used'}</span>
                </span>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={revoke.isPending}
                  onClick={() =>
                    revoke.mutate(t.id, {
                      onSuccess: () => toast({ title: 'Token revoked' }),
                      onError: (err) => toast({ title: 'Not revoked', description: errorMessage(err), variant: 'destructive' }),
                    })
                  }
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted-foreground">No SCIM token yet.</p>
        )}
        {secret ? (
          <div className="space-y-1 rounded-md border border-yellow-500/50 bg-yellow-500/10 p-3" role="status">
            <p className="font-medium">Copy this token now: it will not be shown again.</p>
            <code className="block break-all" data-testid="scim-token-secret">
              {secret}
            </code>
          </div>
        ) : null}
        <form
          className="flex flex-wrap items-end gap-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setErrors({});
            if (!password) {
              setErrors({ password: 'Please enter your password' });
              return;
            }
            create.mutate(
              { name: name.trim(), password },
              {
                onSuccess: (r) => {
                  setSecret(r.secret);
                  setPassword('');
                },
                onError: (err) => {
                  setErrors(fieldErrors(err));
                  toast({ title: 'Token not created', description: errorMessage(err), variant: 'destructive' });
                },
              },
            );
          }}
        >
          <div className="flex flex-col gap-1">
            <label htmlFor={nameId} className="font-medium">
              Token name
            </label>
            <Input id={nameId} value={name} maxLength={60} onChange={(e) => setName(e.target.value)} aria-invalid={errors.name ? true : undefined} />
            {errors.name ? <p className="text-xs text-red-700">{errors.name}</p> : null}
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={passwordId} className="font-medium">
              Your password
            </label>
            <Input id={passwordId} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} aria-invalid={errors.password ? true : undefined} />
            {errors.password ? <p className="text-xs text-red-700">{errors.password}</p> : null}
          </div>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create SCIM token'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function RulesForm({ settings }: { settings: ScimSettings }) {
  const [rules, setRules] = useState<ScimFieldRules>(settings.fieldRules);
  const [adminGroup, setAdminGroup] = useState(settings.adminGroup);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveScimSettings();
  const groupId = useId();
  useEffect(() => {
    setRules(settings.fieldRules);
    setAdminGroup(settings.adminGroup);
  }, [settings]);
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Which profile fields the directory fills</CardTitle>
        <CardDescription>
          Never: the member fills it in. Filled when created: the directory's value is the starting point, the member may change it. Always kept in sync: every update from the
          directory overwrites it, and the member sees it locked.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="space-y-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setErrors({});
            if (!adminGroup.trim()) {
              setErrors({ adminGroup: 'Please name the admin group' });
              return;
            }
            save.mutate(
              { fieldRules: rules, adminGroup: adminGroup.trim() },
              {
                onSuccess: () => toast({ title: 'Provisioning settings saved' }),
                onError: (err) => {
                  setErrors(fieldErrors(err));
                  toast({ title: 'Not saved', description: errorMessage(err), variant: 'destructive' });
                },
              },
            );
          }}
        >
          <div className="md:overflow-x-auto" role="region" aria-label="Field rules" tabIndex={0}>
            <table className="w-full text-left text-sm md:min-w-[560px]" data-testid="scim-field-rules">
              <thead className={STACKED_HEAD}>
                <tr className="border-b text-xs uppercase text-muted-foreground">
                  <th className="py-2 pr-3">Profile field</th>
                  <th className="py-2 pr-3">From the directory</th>
                  <th className="py-2">Rule</th>
                </tr>
              </thead>
              <tbody>
                {SCIM_PROFILE_FIELDS.map((f) => (
                  <tr key={f} className={cn('border-b', STACKED_ROW)}>
                    <td className="py-2 pr-3 font-medium max-md:block max-md:py-1">
                      <label htmlFor={`rule-${f}`}>{SCIM_FIELD_LABELS[f].label}</label>
                    </td>
                    <td data-label="From the directory" className={cn('py-2 pr-3 text-xs text-muted-foreground', STACKED_CELL)}>{SCIM_FIELD_LABELS[f].source}</td>
                    <td className="py-2 max-md:block max-md:py-1">
                      <select
                        id={`rule-${f}`}
                        className="h-9 rounded-md border bg-background px-2 text-sm"
                        value={rules[f]}
                        aria-invalid={errors[`fieldRules.${f}`] ? true : undefined}
                        onChange={(e) => setRules((r) => ({ ...r, [f]: e.target.value as ScimFieldRules[typeof f] }))}
                      >
                        {FIELD_RULES.map((rule) => (
                          <option key={rule} value={rule}>
                            {FIELD_RULE_LABELS[rule]}
                          </option>
                        ))}
                      </select>
                      {errors[`fieldRules.${f}`] ? <p className="text-xs text-red-700">{errors[`fieldRules.${f}`]}</p> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="flex max-w-md flex-col gap-1">
            <label htmlFor={groupId} className="text-sm font-medium">
              Admin group
            </label>
            <Input
              id={groupId}
              value={adminGroup}
              maxLength={100}
              aria-invalid={errors.adminGroup ? true : undefined}
              aria-describedby={`${groupId}-hint`}
              onChange={(e) => setAdminGroup(e.target.value)}
            />
            <p id={`${groupId}-hint`} className="text-xs text-muted-foreground">
              Members of the directory group with this name are team admins; everyone else provisioned is a member. The owner keeps their role.
            </p>
            {errors.adminGroup ? <p className="text-sm text-red-700">{errors.adminGroup}</p> : null}
          </div>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** The owner's provisioning tab: connection details, field rules, the admin group (issue 39). */
export function ProvisioningTab() {
  const { data, isLoading } = useScimSettings();
  if (isLoading || !data) return <Skeleton className="h-64 w-full" />;
  return (
    <div className="space-y-6">
      <Connection settings={data} />
      <Tokens />
      <RulesForm settings={data} />
    </div>
  );
}
