import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, Trash2 } from 'lucide-react';
import { MAX_PROFILE_LINKS } from '#shared/catalogue';
import {
  DEFAULT_PROFILE_LAYOUT,
  LINK_TYPES,
  LINK_TYPE_LABELS,
  MESSAGES,
  PROFILE_LAYOUTS,
  PROFILE_LAYOUT_INFO,
  ProfileForm as ProfileFormSchema,
  type LinkType,
  type Profile,
  type ProfileFormValues,
} from '#shared/schemas/profile';
import { Button } from '#web/components/ui/button';
import { FormField, Input, Select } from '#web/components/ui/input';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { cn } from '#web/lib/utils';
import { useSaveProfile } from '#web/features/profile/api';
import { useAuth } from '#web/lib/session/use-auth';
import { LockedInput, NO_LOCKS, type FieldLocks } from '#web/components/locked-input';
import type { AuthUser } from '#shared/schemas/auth';

/** A link while editing: isNew / isDeleted are client-only and never sent. */
export interface EditableLink {
  key: string;
  id?: number;
  linkType: LinkType;
  url: string;
  isNew?: boolean;
  isDeleted?: boolean;
}

let keySeq = 0;
const nextKey = () => `l${++keySeq}`;

export function toEditable(profile: Profile | null): EditableLink[] {
  return (profile?.links ?? []).map((l) => ({ key: nextKey(), id: l.id, linkType: l.linkType, url: l.url }));
}

/** "example.com" becomes "https://example.com"; anything with a scheme is left for validation. */
export function normalizeUrl(url: string): string {
  const u = url.trim();
  if (!u) return u;
  if (/^[a-z][a-z0-9+.-]*:/i.test(u)) return u;
  return `https://${u.replace(/^\/+/, '')}`;
}

export function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !/\s/.test(url);
  } catch {
    return false;
  }
}

const LAYOUT_SWATCH: Record<string, string> = {
  classic: 'bg-gradient-to-r from-blue-900 to-blue-500',
  modern: 'bg-gradient-to-r from-violet-600 to-pink-500',
  minimal: 'bg-neutral-100 border border-border',
  creative: 'bg-gradient-to-r from-orange-500 to-pink-500',
  corporate: 'bg-gray-900',
};

/** A new profile starts from the account's name and e-mail (given at sign-up). */
function defaults(profile: Profile | null, user: Pick<AuthUser, 'firstName' | 'lastName' | 'email'> | null): ProfileFormValues {
  return {
    fullName: profile?.fullName ?? (user ? `${user.firstName} ${user.lastName}`.trim() : ''),
    jobTitle: profile?.jobTitle ?? '',
    email: profile?.email ?? user?.email ?? '',
    phoneNumber: profile?.phoneNumber ?? '',
    address: profile?.address ?? '',
    companyName: profile?.companyName ?? '',
    profileTemplate: profile?.profileTemplate ?? DEFAULT_PROFILE_LAYOUT,
  };
}

/**
 * The profile form (tab profile): contact fields, layout style and up to 3 links. `locks`: the
 * fields a team manages (issue 21), shown locked with the team's value (the page passes them in).
 */
export function ProfileForm({ profile, onSaved, locks: locked = NO_LOCKS }: { profile: Profile | null; onSaved?: (p: Profile) => void; locks?: FieldLocks }) {
  const save = useSaveProfile();
  const { user } = useAuth();
  const form = useForm<ProfileFormValues>({ resolver: zodResolver(ProfileFormSchema), defaultValues: defaults(profile, user) });
  const [links, setLinks] = useState<EditableLink[]>(() => toEditable(profile));
  const [linkErrors, setLinkErrors] = useState<Record<string, string>>({});
  const { register, handleSubmit, formState, setError, watch, setValue, reset } = form;

  // a profile saved elsewhere (or the first load) refreshes the form
  useEffect(() => {
    reset(defaults(profile, user));
    setLinks(toEditable(profile));
    setLinkErrors({});
  }, [profile, user, reset]);

  const visible = links.filter((l) => !l.isDeleted);
  const remaining = MAX_PROFILE_LINKS - visible.length;

  function addLink() {
    if (remaining <= 0) return;
    setLinks((ls) => [...ls, { key: nextKey(), linkType: locked('website') ? 'linkedin' : 'website', url: '', isNew: true }]);
  }
  function removeLink(key: string) {
    // a saved link is marked deleted (its id is sent in deleteLinks); a new one is dropped
    setLinks((ls) => ls.flatMap((l) => (l.key !== key ? [l] : l.id !== undefined ? [{ ...l, isDeleted: true }] : [])));
    setLinkErrors((e) => {
      const next = { ...e };
      delete next[key];
      return next;
    });
  }
  function updateLink(key: string, patch: Partial<EditableLink>) {
    setLinks((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  }

  const onSubmit = handleSubmit(async (values) => {
    const errs: Record<string, string> = {};
    const normalized = links.map((l) => (l.isDeleted ? l : { ...l, url: normalizeUrl(l.url) }));
    for (const l of normalized) if (!l.isDeleted && !isHttpUrl(l.url)) errs[l.key] = MESSAGES.linkUrl;
    setLinks(normalized);
    setLinkErrors(errs);
    if (Object.keys(errs).length) return;
    const body = {
      ...values,
      links: normalized.filter((l) => !l.isDeleted).map((l) => ({ ...(l.id !== undefined ? { id: l.id } : {}), linkType: l.linkType, url: l.url })),
      deleteLinks: normalized.filter((l) => l.isDeleted && l.id !== undefined).map((l) => l.id!),
      customPhotoUrl: profile?.customPhotoUrl ?? null,
      logoUrl: profile?.logoUrl ?? null,
      bannerLogoUrl: profile?.bannerLogoUrl ?? null,
    };
    try {
      const saved = await save.mutateAsync({ id: profile?.id, body });
      toast({ title: 'Profile updated', description: 'Your profile has been successfully updated.' });
      onSaved?.(saved);
    } catch (err) {
      const fe = fieldErrors(err);
      for (const [k, m] of Object.entries(fe)) {
        if (k in values) setError(k as keyof ProfileFormValues, { message: m });
        if (k === 'website') setLinkErrors((e) => ({ ...e, ...Object.fromEntries(normalized.filter((l) => !l.isDeleted && l.linkType === 'website').map((l) => [l.key, m])) }));
        const linkIdx = /^links\.(\d+)\./.exec(k);
        if (linkIdx) {
          const target = normalized.filter((l) => !l.isDeleted)[Number(linkIdx[1])];
          if (target) setLinkErrors((e) => ({ ...e, [target.key]: m }));
        }
      }
      toast({ title: 'Error updating profile', description: errorMessage(err, err instanceof Error ? err.message : 'Please try again.'), variant: 'destructive' });
    }
  });

  const e = formState.errors;
  const layout = watch('profileTemplate');
  const field = (name: keyof ProfileFormValues) => ({
    id: name,
    'aria-invalid': e[name] ? true : undefined,
    'aria-describedby': e[name] ? `${name}-error` : undefined,
    ...register(name),
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-8" aria-label="Profile information">
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <FormField id="fullName" label="Full name" required error={e.fullName?.message}>
          <Input autoComplete="name" placeholder="Jane Doe" {...field('fullName')} />
        </FormField>
        <FormField id="jobTitle" label="Job title" error={e.jobTitle?.message}>
          <Input autoComplete="organization-title" placeholder="Head of Sales" {...field('jobTitle')} />
        </FormField>
        <FormField id="email" label="Email" error={e.email?.message}>
          <Input type="email" autoComplete="email" placeholder="jane@example.com" {...field('email')} />
        </FormField>
        <FormField id="phoneNumber" label="Phone number" error={e.phoneNumber?.message}>
          <Input type="tel" autoComplete="tel" placeholder="+1 (212) 555-0100" {...field('phoneNumber')} />
        </FormField>
        <FormField id="companyName" label="Company" error={e.companyName?.message}>
          {locked('companyName') ? <LockedInput id="companyName" value={locked('companyName')!.value} /> : <Input autoComplete="organization" placeholder="Acme Inc." {...field('companyName')} />}
        </FormField>
        <FormField id="address" label="Address" error={e.address?.message}>
          {locked('address') ? <LockedInput id="address" value={locked('address')!.value} /> : <Input autoComplete="address-line1" placeholder="350 5th Ave, New York, NY" {...field('address')} />}
        </FormField>
      </div>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Digital profile style</legend>
        {locked('profileTemplate') ? <p className="text-xs text-muted-foreground">{`${PROFILE_LAYOUT_INFO[locked('profileTemplate')!.value as keyof typeof PROFILE_LAYOUT_INFO]?.label ?? 'The team layout'}: this field is managed by your team.`}</p> : null}
        <div role="radiogroup" aria-label="Digital profile style" aria-disabled={locked('profileTemplate') ? true : undefined} className={cn('grid grid-cols-1 gap-3 sm:grid-cols-5', locked('profileTemplate') && 'pointer-events-none opacity-50')}>
          {PROFILE_LAYOUTS.map((name) => (
            <label
              key={name}
              className={cn(
                'flex cursor-pointer flex-col gap-2 rounded-lg border border-border p-3 text-sm hover:border-foreground/40',
                layout === name && 'border-foreground ring-2 ring-ring',
              )}
            >
              <input
                type="radio"
                name="profileTemplate"
                value={name}
                className="sr-only"
                checked={layout === name}
                disabled={!!locked('profileTemplate')}
                onChange={() => setValue('profileTemplate', name, { shouldDirty: true, shouldValidate: true })}
              />
              <span aria-hidden="true" className={cn('h-8 rounded', LAYOUT_SWATCH[name])} />
              <span className="font-semibold">{PROFILE_LAYOUT_INFO[name].label}</span>
              <span className="text-xs text-muted-foreground">{PROFILE_LAYOUT_INFO[name].description}</span>
            </label>
          ))}
        </div>
        {e.profileTemplate ? (
          <p role="alert" className="text-xs font-medium text-destructive">
            {e.profileTemplate.message}
          </p>
        ) : null}
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Custom links</legend>
        {visible.length === 0 ? <p className="text-sm text-muted-foreground">No links yet. Add your website or social profiles.</p> : null}
        {locked('website') ? <LockedInput id="team-website" value={locked('website')!.value} /> : null}
        <ul className="space-y-3">
          {visible.map((l, i) => (
            <li key={l.key} className="flex flex-col gap-2 sm:flex-row sm:items-start" data-testid="link-row">
              <Select
                aria-label={`Link ${i + 1} type`}
                value={l.linkType}
                onChange={(ev) => updateLink(l.key, { linkType: ev.target.value as LinkType })}
                className="sm:w-40"
              >
                {LINK_TYPES.filter((t) => t !== 'website' || !locked('website') || l.linkType === 'website').map((t) => (
                  <option key={t} value={t}>
                    {LINK_TYPE_LABELS[t] === 'Link' ? 'Other' : LINK_TYPE_LABELS[t]}
                  </option>
                ))}
              </Select>
              <div className="flex-1 space-y-1">
                <Input
                  aria-label={`Link ${i + 1} URL`}
                  type="url"
                  inputMode="url"
                  placeholder="https://"
                  value={l.url}
                  aria-invalid={linkErrors[l.key] ? true : undefined}
                  onChange={(ev) => updateLink(l.key, { url: ev.target.value })}
                  onBlur={(ev) => updateLink(l.key, { url: normalizeUrl(ev.target.value) })}
                />
                {linkErrors[l.key] ? (
                  <p role="alert" className="text-xs font-medium text-destructive">
                    {linkErrors[l.key]}
                  </p>
                ) : null}
              </div>
              <Button type="button" variant="ghost" size="icon" aria-label={`Remove link ${i + 1}`} onClick={() => removeLink(l.key)}>
                <Trash2 aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
        {remaining > 0 ? (
          <Button type="button" variant="outline" size="sm" onClick={addLink}>
            <Plus aria-hidden="true" />
            Add Link ({remaining} remaining)
          </Button>
        ) : (
          <p className="text-xs text-muted-foreground">You have added the maximum of {MAX_PROFILE_LINKS} links.</p>
        )}
      </fieldset>

      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : profile ? 'Save Profile' : 'Create Profile'}
        </Button>
      </div>
    </form>
  );
}
