import { useState, type FormEvent } from 'react';
import { Building2 } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card';
import { FormField, Input } from '#web/components/ui/input';
import { fieldErrors } from '#web/lib/api';
import { useCreateTeam } from '#web/features/team/api';
import { done, failed } from '#web/features/team/notify';

const FIELDS = [
  { k: 'name', label: 'Team name', required: true, type: 'text', autoComplete: 'organization' },
  { k: 'companyName', label: 'Company name', type: 'text', autoComplete: 'organization' },
  { k: 'companyEmail', label: 'Company e-mail', type: 'email', autoComplete: 'email' },
  { k: 'companyPhone', label: 'Company phone', type: 'tel', autoComplete: 'tel' },
  { k: 'address', label: 'Address', type: 'text', autoComplete: 'address-line1' },
  { k: 'website', label: 'Website', type: 'url', autoComplete: 'url' },
] as const;

type Values = Record<(typeof FIELDS)[number]['k'], string>;

/** No team yet: create one (the creator becomes its owner). */
export function CreateTeamForm() {
  const create = useCreateTeam();
  const [v, setV] = useState<Values>({ name: '', companyName: '', companyEmail: '', companyPhone: '', address: '', website: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    try {
      await create.mutateAsync({ ...v, companyName: v.companyName || null, companyEmail: v.companyEmail || null, companyPhone: v.companyPhone || null, address: v.address || null, website: v.website || null });
      done('Your team is ready', 'Brand it, then invite your people.');
    } catch (err) {
      setErrors(fieldErrors(err));
      failed(err, 'The team was not created');
    }
  }

  return (
    <Card className="mx-auto max-w-2xl">
      <CardHeader>
        {/* the page's only heading, so it is the h1 (a card title is an h3) */}
        <h1 className="flex items-center gap-2 text-lg font-semibold leading-tight">
          <Building2 aria-hidden="true" /> Create your team
        </h1>
        <CardDescription>
          Brand every profile at once, invite your people, order everyone&apos;s cards in one order and see the team&apos;s views and leads in one place.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {FIELDS.map((f) => (
            <FormField key={f.k} id={`team-${f.k}`} label={f.label} required={'required' in f} error={errors[f.k]} className={f.k === 'address' ? 'sm:col-span-2' : undefined}>
              <Input
                id={`team-${f.k}`}
                type={f.type}
                autoComplete={f.autoComplete}
                value={v[f.k]}
                aria-invalid={!!errors[f.k]}
                onChange={(e) => setV((s) => ({ ...s, [f.k]: e.target.value }))}
              />
            </FormField>
          ))}
          <div className="sm:col-span-2">
            <Button type="submit" variant="gold" disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create team'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
