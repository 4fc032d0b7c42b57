import { useState, type FormEvent } from 'react';
import { Lock } from 'lucide-react';
import { LOCKABLE_FIELDS, LOCKABLE_FIELD_LABELS, readableOnWhite, type LockableField } from '#shared/team/brand';
import { LOGO_ACCEPT } from '#shared/catalogue';
import { PROFILE_LAYOUTS, PROFILE_LAYOUT_INFO } from '#shared/schemas/profile';
import { TEAM_MESSAGES, type TeamInfo } from '#shared/schemas/team';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input, Select } from '#web/components/ui/input';
import { fieldErrors } from '#web/lib/api';
import { useSaveBrand } from '#web/features/team/api';
import { done, failed } from '#web/features/team/notify';
import { postUploadLogo } from '#shared/contracts/uploads';
import { uploadToEndpoint } from '#web/lib/endpoint';

type Text = 'companyName' | 'companyEmail' | 'companyPhone' | 'address' | 'website';
const TEXT_FIELDS: { k: Text; label: string; type: string }[] = [
  { k: 'companyName', label: 'Company name', type: 'text' },
  { k: 'website', label: 'Website', type: 'url' },
  { k: 'address', label: 'Address', type: 'text' },
  { k: 'companyEmail', label: 'Company e-mail', type: 'email' },
  { k: 'companyPhone', label: 'Company phone', type: 'tel' },
];

function ColorField({ id, label, value, onChange, error }: { id: string; label: string; value: string; onChange: (v: string) => void; error?: string }) {
  const readable = /^#[0-9a-f]{6}$/i.test(value) && readableOnWhite(value);
  return (
    <FormField id={id} label={label} error={error ?? (readable ? undefined : TEAM_MESSAGES.color)} hint="White text must stay readable on it">
      <div className="flex items-center gap-2">
        <input type="color" aria-label={`${label} picker`} value={/^#[0-9a-f]{6}$/i.test(value) ? value : '#000000'} onChange={(e) => onChange(e.target.value)} className="h-10 w-12 rounded border" />
        <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} className="font-mono" maxLength={7} />
      </div>
    </FormField>
  );
}

/**
 * Brand: company details, logo, colours, profile layout, card template and the locked fields.
 * Every member's public page shows a saved change at once. `templates`: the card templates to
 * choose from (the page asks the templates feature).
 */
export function BrandTab({ team, templates }: { team: TeamInfo; templates: readonly { id: number; name: string }[] }) {
  const save = useSaveBrand();
  const [v, setV] = useState({
    companyName: team.companyName ?? '',
    companyEmail: team.companyEmail ?? '',
    companyPhone: team.companyPhone ?? '',
    address: team.address ?? '',
    website: team.website ?? '',
    logoUrl: team.brand.logoUrl,
    primaryColor: team.brand.primaryColor,
    accentColor: team.brand.accentColor,
    profileLayout: team.brand.profileLayout ?? '',
    templateId: team.brand.templateId ? String(team.brand.templateId) : '',
    lockedFields: team.brand.lockedFields as LockableField[],
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [uploading, setUploading] = useState(false);

  async function onLogo(file: File | undefined) {
    if (!file) return;
    setUploading(true);
    try {
      const { url } = await uploadToEndpoint(postUploadLogo, file);
      setV((s) => ({ ...s, logoUrl: url }));
    } catch (err) {
      failed(err, 'The logo was not uploaded');
    } finally {
      setUploading(false);
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    try {
      await save.mutateAsync({
        companyName: v.companyName || null,
        companyEmail: v.companyEmail || null,
        companyPhone: v.companyPhone || null,
        address: v.address || null,
        website: v.website || null,
        logoUrl: v.logoUrl,
        primaryColor: v.primaryColor,
        accentColor: v.accentColor,
        profileLayout: (v.profileLayout || null) as (typeof PROFILE_LAYOUTS)[number] | null,
        templateId: v.templateId ? Number(v.templateId) : null,
        lockedFields: v.lockedFields,
      });
      done('Brand saved', "Every member's page shows it now.");
    } catch (err) {
      setErrors(fieldErrors(err));
      failed(err, 'The brand was not saved');
    }
  }

  const toggle = (f: LockableField) => setV((s) => ({ ...s, lockedFields: s.lockedFields.includes(f) ? s.lockedFields.filter((x) => x !== f) : [...s.lockedFields, f] }));

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6" aria-label="Team brand">
      <Card>
        <CardHeader>
          <CardTitle as="h2">Company</CardTitle>
          <CardDescription>Shown on every member&apos;s page and card, and on the page a card shows once its holder has left.</CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {TEXT_FIELDS.map((f) => (
            <FormField key={f.k} id={`brand-${f.k}`} label={f.label} error={errors[f.k]}>
              <Input id={`brand-${f.k}`} type={f.type} value={v[f.k]} onChange={(e) => setV((s) => ({ ...s, [f.k]: e.target.value }))} aria-invalid={!!errors[f.k]} />
            </FormField>
          ))}
          <FormField id="brand-logo" label="Logo" error={errors.logoUrl}>
            <div className="flex flex-wrap items-center gap-3">
              {v.logoUrl ? <img src={v.logoUrl} alt="Team logo" className="h-10 max-w-32 object-contain" /> : <span className="text-sm text-muted-foreground">No logo</span>}
              <input id="brand-logo" type="file" accept={LOGO_ACCEPT} onChange={(e) => void onLogo(e.target.files?.[0])} className="w-full min-w-0 max-w-full text-sm" />
              {uploading ? <span className="text-sm">Uploading…</span> : null}
            </div>
          </FormField>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h2">Look</CardTitle>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <ColorField id="brand-primary" label="Primary colour" value={v.primaryColor} onChange={(c) => setV((s) => ({ ...s, primaryColor: c }))} error={errors.primaryColor} />
          <ColorField id="brand-accent" label="Accent colour" value={v.accentColor} onChange={(c) => setV((s) => ({ ...s, accentColor: c }))} error={errors.accentColor} />
          <FormField id="brand-layout" label="Profile layout" error={errors.profileLayout} hint="New members start with it; lock it to apply it to everyone">
            <Select id="brand-layout" value={v.profileLayout} onChange={(e) => setV((s) => ({ ...s, profileLayout: e.target.value }))}>
              <option value="">Each member chooses</option>
              {PROFILE_LAYOUTS.map((l) => (
                <option key={l} value={l}>
                  {PROFILE_LAYOUT_INFO[l].label}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField id="brand-template" label="Card template" error={errors.templateId} hint="Used for the team's card orders">
            <Select id="brand-template" value={v.templateId} onChange={(e) => setV((s) => ({ ...s, templateId: e.target.value }))}>
              <option value="">Classic (default)</option>
              {templates.map((t) => (
                <option key={t.id} value={String(t.id)}>
                  {t.name}
                </option>
              ))}
            </Select>
          </FormField>
          <div className="sm:col-span-2 flex items-center gap-3 rounded-md border p-3" aria-hidden="true">
            <span className="h-8 w-24 rounded" style={{ background: v.primaryColor }} />
            <span className="rounded border-2 px-3 py-1 text-sm font-semibold" style={{ borderColor: v.accentColor, color: v.accentColor }}>
              Link button
            </span>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h2" className="flex items-center gap-2">
            <Lock className="size-4" aria-hidden="true" /> Locked fields
          </CardTitle>
          <CardDescription>Members see these fields locked: their page always shows the team&apos;s value.</CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-2 sm:grid-cols-3">
          {LOCKABLE_FIELDS.map((f) => (
            <label key={f} className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={v.lockedFields.includes(f)} onChange={() => toggle(f)} className="size-4" />
              {LOCKABLE_FIELD_LABELS[f]}
            </label>
          ))}
        </CardContent>
      </Card>
      <Button type="submit" variant="gold" disabled={save.isPending || uploading}>
        {save.isPending ? 'Saving…' : 'Save brand'}
      </Button>
    </form>
  );
}
