import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowDown, ArrowUp, GripVertical, Plus, Trash2 } from 'lucide-react';
import {
  DEFAULT_PROFILE_LAYOUT,
  LINK_TYPES,
  LINK_TYPE_LABELS,
  PROFILE_LAYOUTS,
  PROFILE_LAYOUT_INFO,
  ProfileForm as ProfileFormSchema,
  type LinkType,
  type Profile,
  type ProfileLayout,
  type ProfileFormValues,
} from '#shared/schemas/profile';
import { Button } from '#web/components/ui/button';
import { FormField, Input, Select } from '#web/components/ui/input';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { cn } from '#web/lib/utils';
import { useMaxProfileLinks, useSaveProfile, useVisitStats } from '#web/features/profile/api';
import { LINK_LABEL_MAX, LINK_MESSAGES, normalizeProfileLink } from '#shared/profile/links';
import { useAuth } from '#web/lib/session/use-auth';
import { LockedInput, NO_LOCKS, type FieldLocks } from '#web/components/locked-input';
import type { AuthUser } from '#shared/schemas/auth';
import { LogoContrastWarning } from './logo-contrast-warning';
import { formatPhone, toE164 } from '#shared/profile/phone';

/** A link while editing: isNew / isDeleted are client-only and never sent. */
export interface EditableLink {
  key: string;
  id?: number;
  linkType: LinkType;
  url: string;
  label: string;
  isNew?: boolean;
  isDeleted?: boolean;
}

let keySeq = 0;
const nextKey = () => `l${++keySeq}`;

export function toEditable(profile: Profile | null): EditableLink[] {
  return (profile?.links ?? []).map((l) => ({ key: nextKey(), id: l.id, linkType: l.linkType, url: shownUrl(l), label: l.label ?? '' }));
}

/** Under the phone field: how a number is read (decision 37-09). */
const PHONE_HINT = 'A number without a country code is read as a US number.';

/** What each link type's address field asks for. */
const URL_PLACEHOLDER: Partial<Record<LinkType, string>> = {
  email: 'name@example.com',
  phone: 'e.g. +1 212-555-0100',
  whatsapp: '+1 212 555 0100',
  twitter: 'https://x.com/name or @name',
  instagram: 'https://instagram.com/name or @name',
  tiktok: 'https://tiktok.com/@name or @name',
  youtube: 'https://youtube.com/@name or @name',
  github: 'https://github.com/name or @name',
  booking: 'https://calendly.com/name',
  pdf: 'https://example.com/brochure.pdf',
};

/** A link's address as it will be saved (per type), or the text typed when it is not one yet. */
function normalizedUrl(l: Pick<EditableLink, 'linkType' | 'url'>): string {
  const r = normalizeProfileLink(l.linkType, l.url);
  return 'url' in r ? r.url : l.url;
}

/** A link's address as the editor shows it: as saved, but a phone number readable (`tel:+12125550100` shows as +1 212-555-0100). */
function shownUrl(l: Pick<EditableLink, 'linkType' | 'url'>): string {
  const saved = normalizedUrl(l);
  return l.linkType === 'phone' && saved.startsWith('tel:') ? formatPhone(saved.slice(4)) : saved;
}

/** The problem with a link before it is sent (the server's rules, `#shared/profile/links`). */
function linkProblem(l: EditableLink): string | null {
  const r = normalizeProfileLink(l.linkType, l.url);
  if ('error' in r) return r.error;
  const label = l.label.trim();
  if (label.length > LINK_LABEL_MAX) return LINK_MESSAGES.labelLength;
  if (!label && l.linkType === 'custom') return LINK_MESSAGES.label;
  return null;
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
    // stored in E.164 (decision 37-09), edited in a readable form; the save stores E.164 again
    phoneNumber: profile?.phoneNumber ? formatPhone(profile.phoneNumber) : '',
    address: profile?.address ?? '',
    companyName: profile?.companyName ?? '',
    profileTemplate: profile?.profileTemplate ?? DEFAULT_PROFILE_LAYOUT,
  };
}

/**
 * The profile form (tab profile): contact fields, layout style and links up to the shop's limit. `locks`: the
 * fields a team manages (issue 21), shown locked with the team's value (the page passes them in).
 */
export function ProfileForm({
  profile,
  onSaved,
  locks: locked = NO_LOCKS,
  synced = [],
}: {
  profile: Profile | null;
  onSaved?: (p: Profile) => void;
  locks?: FieldLocks;
  /** fields the member's company directory keeps in sync (SCIM, decision 39-02): read-only, explained by the note with id `synced-fields-note` */
  synced?: readonly string[];
}) {
  const save = useSaveProfile();
  const maxLinks = useMaxProfileLinks();
  const stats = useVisitStats(!!profile);
  const clicksOf = (id: number | undefined) => stats.data?.linkClicks.find((c) => c.linkId === id)?.clicks;
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
  const remaining = maxLinks - visible.length;

  function addLink() {
    if (remaining <= 0) return;
    setLinks((ls) => [...ls, { key: nextKey(), linkType: locked('website') ? 'linkedin' : 'website', url: '', label: '', isNew: true }]);
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
  /** Moves a link one place up (-1) or down (+1) among the shown ones; the saved order is the list's. */
  function moveLink(key: string, by: -1 | 1) {
    setLinks((ls) => {
      const shown = ls.filter((l) => !l.isDeleted);
      const i = shown.findIndex((l) => l.key === key);
      const j = i + by;
      if (i < 0 || j < 0 || j >= shown.length) return ls;
      [shown[i], shown[j]] = [shown[j]!, shown[i]!];
      return [...shown, ...ls.filter((l) => l.isDeleted)];
    });
  }

  /** Puts a link at `index` among the shown ones (the others keep their order). */
  function moveLinkTo(key: string, index: number) {
    setLinks((ls) => {
      const shown = ls.filter((l) => !l.isDeleted);
      const i = shown.findIndex((l) => l.key === key);
      if (i < 0 || i === index) return ls;
      const [item] = shown.splice(i, 1);
      shown.splice(Math.max(0, Math.min(index, shown.length)), 0, item!);
      return [...shown, ...ls.filter((l) => l.isDeleted)];
    });
  }

  // Pointer drag (mouse, pen, touch) by a row's handle (decision 37-04): while the pointer moves,
  // the link takes the place of the rows whose middles it passed. The moves are followed on the
  // window (a row moved in the page loses its pointer capture). Move up / Move down stay for keyboards.
  const listRef = useRef<HTMLUListElement>(null);
  const [dragKey, setDragKey] = useState<string | null>(null);
  function onDragStart(ev: React.PointerEvent<HTMLButtonElement>, key: string) {
    if (ev.pointerType === 'mouse' && ev.button !== 0) return;
    ev.preventDefault();
    setDragKey(key);
  }
  useEffect(() => {
    if (!dragKey) return;
    const move = (ev: PointerEvent) => {
      const rows = Array.from(listRef.current?.querySelectorAll<HTMLElement>('[data-link-key]') ?? []);
      const above = rows.filter((r) => {
        if (r.dataset.linkKey === dragKey) return false;
        const box = r.getBoundingClientRect();
        return ev.clientY > box.top + box.height / 2;
      }).length;
      moveLinkTo(dragKey, above);
    };
    const end = () => setDragKey(null);
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
    };
  }, [dragKey]);

  const onSubmit = handleSubmit(async (values) => {
    const errs: Record<string, string> = {};
    const normalized = links.map((l) => (l.isDeleted ? l : { ...l, url: normalizedUrl(l) }));
    for (const l of normalized) {
      const problem = l.isDeleted ? null : linkProblem(l);
      if (problem) errs[l.key] = problem;
    }
    setLinks(normalized.map((l) => (l.isDeleted ? l : { ...l, url: shownUrl(l) })));
    setLinkErrors(errs);
    if (Object.keys(errs).length) return;
    const body = {
      ...values,
      // sent as it will be stored (E.164, decision 37-09); the check above already refused a number it cannot read
      phoneNumber: values.phoneNumber.trim() ? (toE164(values.phoneNumber) ?? values.phoneNumber) : values.phoneNumber,
      links: normalized
        .filter((l) => !l.isDeleted)
        .map((l) => ({ ...(l.id !== undefined ? { id: l.id } : {}), linkType: l.linkType, url: l.url, label: l.label.trim() || null })),
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
  const field = (name: keyof ProfileFormValues, hint = false) => {
    const sync = synced.includes(name);
    return {
      id: name,
      'aria-invalid': e[name] ? true : undefined,
      'aria-describedby': [e[name] ? `${name}-error` : hint ? `${name}-hint` : '', sync ? 'synced-fields-note' : ''].filter(Boolean).join(' ') || undefined,
      ...(sync ? { readOnly: true, 'aria-readonly': true as const, className: 'bg-muted', 'data-synced': 'true' } : {}),
      ...register(name),
    };
  };

  // the number as it will be stored, shown readable once the field is left (a number it cannot read stays as typed, with its message on saving)
  const phoneReg = field('phoneNumber', true);
  const phoneField = {
    ...phoneReg,
    onBlur: (ev: React.FocusEvent<HTMLInputElement>) => {
      const readable = toE164(ev.target.value) ? formatPhone(ev.target.value) : null;
      if (readable && readable !== ev.target.value && !synced.includes('phoneNumber')) setValue('phoneNumber', readable, { shouldDirty: true });
      return phoneReg.onBlur(ev);
    },
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-8" aria-label="Profile information">
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <FormField id="fullName" label="Full name" required error={e.fullName?.message}>
          <Input autoComplete="name" placeholder="e.g. Jane Doe" {...field('fullName')} />
        </FormField>
        <FormField id="jobTitle" label="Job title" error={e.jobTitle?.message}>
          <Input autoComplete="organization-title" placeholder="e.g. Head of Sales" {...field('jobTitle')} />
        </FormField>
        <FormField id="email" label="Email" error={e.email?.message}>
          <Input type="email" autoComplete="email" placeholder="e.g. jane@example.com" {...field('email')} />
        </FormField>
        <FormField id="phoneNumber" label="Phone number" error={e.phoneNumber?.message} hint={PHONE_HINT}>
          <Input type="tel" autoComplete="tel" placeholder="e.g. +1 212-555-0100" {...phoneField} />
        </FormField>
        <FormField id="companyName" label="Company" error={e.companyName?.message}>
          {locked('companyName') ? <LockedInput id="companyName" value={locked('companyName')!.value} /> : <Input autoComplete="organization" placeholder="e.g. Acme Inc." {...field('companyName')} />}
        </FormField>
        <FormField id="address" label="Address" error={e.address?.message}>
          {locked('address') ? <LockedInput id="address" value={locked('address')!.value} /> : <Input autoComplete="address-line1" placeholder="e.g. 350 5th Ave, New York, NY" {...field('address')} />}
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
        {(PROFILE_LAYOUTS as readonly string[]).includes(layout) ? (
          <LogoContrastWarning
            layout={layout as ProfileLayout}
            logoUrl={locked('logoUrl')?.value || (profile?.logoUrl ?? null)}
            bannerLogoUrl={locked('logoUrl')?.value || (profile?.bannerLogoUrl ?? null)}
            headerColour={profile?.brand?.primaryColor}
          />
        ) : null}
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Custom links</legend>
        {visible.length === 0 ? <p className="text-sm text-muted-foreground">No links yet. Add your website or social profiles.</p> : null}
        {locked('website') ? <LockedInput id="team-website" value={locked('website')!.value} /> : null}
        <ul ref={listRef} className="space-y-3">
          {visible.map((l, i) => (
            <li
              key={l.key}
              className={cn('flex flex-col gap-2 rounded-md border border-border bg-background p-2 sm:flex-row sm:items-start', dragKey === l.key && 'relative z-10 shadow-lg ring-2 ring-ring')}
              data-testid="link-row"
              data-link-key={l.key}
            >
              {visible.length > 1 ? (
                <button
                  type="button"
                  className="flex cursor-grab touch-none items-center justify-center self-center rounded-md p-2 text-muted-foreground hover:bg-accent active:cursor-grabbing"
                  aria-label={`Drag link ${i + 1} to reorder`}
                  title="Drag to reorder (or use Move up and Move down)"
                  tabIndex={-1}
                  onPointerDown={(ev) => onDragStart(ev, l.key)}
                >
                  <GripVertical aria-hidden="true" className="size-4" />
                </button>
              ) : null}
              <Select
                aria-label={`Link ${i + 1} type`}
                value={l.linkType}
                onChange={(ev) => updateLink(l.key, { linkType: ev.target.value as LinkType })}
                className="sm:w-40"
              >
                {LINK_TYPES.filter((t) => (t !== 'website' || !locked('website') || l.linkType === 'website') && (t !== 'other' || l.linkType === 'other')).map((t) => (
                  <option key={t} value={t}>
                    {t === 'custom' ? 'Custom (your label)' : t === 'other' ? 'Other' : LINK_TYPE_LABELS[t]}
                  </option>
                ))}
              </Select>
              <div className="min-w-0 flex-1 space-y-1">
                <Input
                  aria-label={`Link ${i + 1} URL`}
                  type="text"
                  inputMode={l.linkType === 'email' ? 'email' : l.linkType === 'phone' || l.linkType === 'whatsapp' ? 'tel' : 'url'}
                  placeholder={URL_PLACEHOLDER[l.linkType] ?? 'https://'}
                  value={l.url}
                  aria-invalid={linkErrors[l.key] ? true : undefined}
                  onChange={(ev) => updateLink(l.key, { url: ev.target.value })}
                  onBlur={(ev) => updateLink(l.key, { url: shownUrl({ linkType: l.linkType, url: ev.target.value }) })}
                />
                <Input
                  aria-label={`Link ${i + 1} label`}
                  placeholder={l.linkType === 'custom' ? 'Label (required)' : `Label (optional, default ${LINK_TYPE_LABELS[l.linkType]})`}
                  maxLength={LINK_LABEL_MAX}
                  value={l.label}
                  onChange={(ev) => updateLink(l.key, { label: ev.target.value })}
                />
                {linkErrors[l.key] ? (
                  <p role="alert" className="text-xs font-medium text-destructive">
                    {linkErrors[l.key]}
                  </p>
                ) : null}
                {l.id !== undefined && clicksOf(l.id) !== undefined ? (
                  <p className="text-xs text-muted-foreground">{`${clicksOf(l.id)} ${clicksOf(l.id) === 1 ? 'click' : 'clicks'}`}</p>
                ) : null}
              </div>
              <div className="flex gap-1 self-end sm:self-start">
                <Button type="button" variant="ghost" size="icon" aria-label="Move up" title="Move up" disabled={i === 0} onClick={() => moveLink(l.key, -1)}>
                  <ArrowUp aria-hidden="true" />
                </Button>
                <Button type="button" variant="ghost" size="icon" aria-label="Move down" title="Move down" disabled={i === visible.length - 1} onClick={() => moveLink(l.key, 1)}>
                  <ArrowDown aria-hidden="true" />
                </Button>
                <Button type="button" variant="ghost" size="icon" aria-label={`Remove link ${i + 1}`} onClick={() => removeLink(l.key)}>
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
        {remaining > 0 ? (
          <Button type="button" variant="outline" size="sm" onClick={addLink}>
            <Plus aria-hidden="true" />
            Add Link ({remaining} remaining)
          </Button>
        ) : (
          <p className="text-xs text-muted-foreground">You have added the maximum of {maxLinks} links.</p>
        )}
      </fieldset>

      {/* the form's primary action (gold, as every form's own submit); the page's Design Your Card below is secondary */}
      <div className="flex justify-end">
        <Button type="submit" variant="gold" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : profile ? 'Save Profile' : 'Create Profile'}
        </Button>
      </div>
    </form>
  );
}
