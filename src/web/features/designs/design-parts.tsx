import { Check } from 'lucide-react';
import { CARD_TYPES, formatUsd, type CardTypeId } from '#shared/catalogue';
import { DESIGN_EMAIL_RE, DESIGN_MESSAGES } from '#shared/templates/messages';
import type { SvgTemplate } from '#shared/schemas/templates';
import type { Profile } from '#shared/schemas/profile';
import { Button } from '#web/components/ui/button';
import { FormField, Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { cn } from '#web/lib/utils';
import { TemplateThumbnail } from '#web/components/template-thumbnail';
import { formatPhone } from '#shared/profile/phone';

/** The design form (spec "Design form"). */
export interface DesignValues {
  fullName: string;
  jobTitle: string;
  companyName: string;
  email: string;
  phoneNumber: string;
  address: string;
  website: string;
  linkedinUrl: string;
}

/** The card templates (GET /api/svg-templates) as the page asks the templates feature for them. */
export interface TemplatesQuery {
  data?: SvgTemplate[];
  isLoading: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/** The signed-in user's profile (null when they have none yet) as the page asks the profile feature for it. */
export interface ProfileQuery {
  data?: Profile | null;
  isLoading: boolean;
}

export const EMPTY_DESIGN: DesignValues = { fullName: '', jobTitle: '', companyName: '', email: '', phoneNumber: '', address: '', website: '', linkedinUrl: '' };

export function designFromProfile(p: Profile | null | undefined, fallbackEmail = ''): DesignValues {
  if (!p) return { ...EMPTY_DESIGN, email: fallbackEmail };
  const link = (t: string) => p.links.find((l) => l.linkType === t)?.url ?? '';
  return {
    fullName: p.fullName ?? '',
    jobTitle: p.jobTitle ?? '',
    companyName: p.companyName ?? '',
    email: p.email ?? fallbackEmail,
    // the profile stores E.164 (decision 37-09): the card shows it readable
    phoneNumber: p.phoneNumber ? formatPhone(p.phoneNumber) : '',
    address: p.address ?? '',
    website: link('website'),
    linkedinUrl: link('linkedin'),
  };
}

/** The spec's checks: name, e-mail and phone required; e-mail must look like an address. */
export function checkDesign(v: DesignValues): { title: string; description: string; field: keyof DesignValues } | null {
  if (!v.fullName.trim()) return { title: DESIGN_MESSAGES.missingTitle, description: DESIGN_MESSAGES.missing, field: 'fullName' };
  if (!v.email.trim()) return { title: DESIGN_MESSAGES.missingTitle, description: DESIGN_MESSAGES.missing, field: 'email' };
  if (!v.phoneNumber.trim()) return { title: DESIGN_MESSAGES.missingTitle, description: DESIGN_MESSAGES.missing, field: 'phoneNumber' };
  if (!DESIGN_EMAIL_RE.test(v.email.trim())) return { title: DESIGN_MESSAGES.invalidEmailTitle, description: DESIGN_MESSAGES.invalidEmail, field: 'email' };
  return null;
}

export function StepHeading({ n, title, done }: { n: number; title: string; done?: boolean }) {
  return (
    <h2 className="flex items-center gap-3 text-lg font-semibold">
      <span
        className={cn('flex size-7 items-center justify-center rounded-full border text-sm', done ? 'border-gold bg-gold text-black' : 'border-border')}
        aria-hidden="true"
      >
        {done ? <Check className="size-4" /> : n}
      </span>
      {title}
    </h2>
  );
}

export function TemplatePicker({
  templates,
  value,
  onChange,
  isLoading,
  isError,
  onRetry,
}: {
  templates: SvgTemplate[] | undefined;
  value: number;
  onChange: (id: number) => void;
  isLoading?: boolean;
  isError?: boolean;
  onRetry?: () => void;
}) {
  if (isLoading) {
    return (
      <div className="grid grid-cols-2 gap-3">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="aspect-[7/4] w-full" />
        ))}
      </div>
    );
  }
  const active = (templates ?? []).filter((t) => t.isActive);
  if (isError && active.length === 0) {
    return (
      <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-4 text-sm" data-testid="templates-error">
        <span className="font-medium text-destructive">Failed to fetch templates</span>
        {onRetry ? (
          <Button type="button" size="sm" variant="outline" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </div>
    );
  }
  return (
    <div role="radiogroup" aria-label="Template" className="grid grid-cols-2 gap-3">
      {active.map((t) => (
        <button
          key={t.id}
          type="button"
          role="radio"
          aria-checked={value === t.id}
          aria-label={`${t.name} template`}
          onClick={() => onChange(t.id)}
          className={cn(
            // selection drawn with a ring: a global `* { border-color }` rule outranks border colour utilities
            'cursor-pointer rounded-xl p-1.5 text-left transition-shadow focus-visible:outline-2 focus-visible:outline-ring',
            value === t.id ? 'ring-2 ring-gold' : 'ring-1 ring-transparent hover:ring-border',
          )}
          data-testid={`pick-template-${t.id}`}
        >
          <TemplateThumbnail template={t} hover={false} />
          <span className="mt-1.5 block px-1 text-sm font-medium">{t.name}</span>
        </button>
      ))}
    </div>
  );
}

export function CardTypePicker({ value, onChange }: { value: CardTypeId; onChange: (v: CardTypeId) => void }) {
  return (
    <div role="radiogroup" aria-label="Card type" className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      {CARD_TYPES.map((c) => (
        <button
          key={c.id}
          type="button"
          role="radio"
          aria-checked={value === c.id}
          onClick={() => onChange(c.id)}
          className={cn(
            'cursor-pointer rounded-lg border p-4 text-left transition-colors focus-visible:outline-2 focus-visible:outline-ring',
            value === c.id ? 'bg-gold/5 ring-2 ring-gold' : 'hover:bg-accent',
          )}
          data-testid={`card-type-${c.id}`}
        >
          <span className="flex items-baseline justify-between gap-2">
            <span className="font-medium">{c.label}</span>
            <span className="text-sm tabular-nums">{formatUsd(c.priceCents)}/card</span>
          </span>
          <span className="mt-1 block text-xs text-muted-foreground">{c.description}</span>
        </button>
      ))}
    </div>
  );
}

const FIELDS: Array<{ key: keyof DesignValues; label: string; type?: string; required?: boolean; autoComplete?: string; placeholder?: string; wide?: boolean }> = [
  { key: 'fullName', label: 'Full Name', required: true, autoComplete: 'name', placeholder: 'Alexandra Reed' },
  { key: 'jobTitle', label: 'Job Title', required: true, autoComplete: 'organization-title', placeholder: 'Creative Director' },
  { key: 'email', label: 'Email', type: 'email', required: true, autoComplete: 'email', placeholder: 'you@company.com' },
  { key: 'phoneNumber', label: 'Phone', type: 'tel', required: true, autoComplete: 'tel', placeholder: '+1 (212) 555-0182' },
  { key: 'companyName', label: 'Company', autoComplete: 'organization', placeholder: 'Northwind Studio' },
  { key: 'address', label: 'Address', autoComplete: 'address-line1', placeholder: '350 Fifth Avenue, New York, NY' },
  { key: 'website', label: 'Website', type: 'url', placeholder: 'https://example.com' },
  { key: 'linkedinUrl', label: 'LinkedIn', type: 'url', placeholder: 'https://www.linkedin.com/in/you' },
];

export function DesignForm({
  values,
  onChange,
  errors,
  truncated = [],
}: {
  values: DesignValues;
  onChange: (v: DesignValues) => void;
  errors: Partial<Record<keyof DesignValues, string>>;
  truncated?: string[];
}) {
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      {FIELDS.map((f) => (
        <FormField
          key={f.key}
          id={`design-${f.key}`}
          label={f.label}
          required={f.required}
          error={errors[f.key]}
          hint={truncated.includes(f.key) ? 'Too long to fit on the card: it is shortened in the preview.' : undefined}
        >
          <Input
            id={`design-${f.key}`}
            name={f.key}
            type={f.type ?? 'text'}
            value={values[f.key]}
            autoComplete={f.autoComplete}
            placeholder={f.placeholder}
            maxLength={f.key === 'address' ? 300 : f.type === 'url' ? 300 : 100}
            aria-invalid={!!errors[f.key]}
            aria-describedby={errors[f.key] ? `design-${f.key}-error` : undefined}
            onChange={(e) => onChange({ ...values, [f.key]: e.target.value })}
          />
        </FormField>
      ))}
    </div>
  );
}

/** Preview style named by the template (spec: minimal, classic, modern, otherwise sleek). */
export function previewStyleOf(name: string): 'Minimal' | 'Classic' | 'Modern' | 'Sleek' {
  const n = name.toLowerCase();
  if (n.includes('minimal')) return 'Minimal';
  if (n.includes('classic')) return 'Classic';
  if (n.includes('modern')) return 'Modern';
  return 'Sleek';
}

/**
 * What the live preview draws: exactly what will be printed. An empty field is left off the card
 * (issue 20); the form's hints, outside the card, say what goes where.
 */
export function previewData(v: DesignValues): DesignValues {
  const out = { ...v };
  for (const k of Object.keys(out) as Array<keyof DesignValues>) out[k] = out[k].trim();
  return out;
}

/** Values to send: empty optional fields as null/undefined. */
export function toCustomerProfile(v: DesignValues) {
  const opt = (s: string) => (s.trim() ? s.trim() : undefined);
  return {
    fullName: v.fullName.trim(),
    jobTitle: opt(v.jobTitle),
    companyName: opt(v.companyName),
    email: v.email.trim(),
    phoneNumber: v.phoneNumber.trim(),
    address: opt(v.address),
    website: opt(v.website),
    linkedinUrl: opt(v.linkedinUrl),
  };
}
