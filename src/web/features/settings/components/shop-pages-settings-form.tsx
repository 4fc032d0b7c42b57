import { useEffect, useId } from 'react';
import { Link } from 'react-router';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { CLAIMS_MAX, LegalSettings, MAX_PROFILE_LINKS_RANGE, MaxProfileLinks, ShopClaims } from '#shared/schemas/settings';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input, Textarea } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useSaveShopSettings, useShopSettings } from '#web/features/settings/api';

const PagesSettings = z.object({ maxProfileLinks: MaxProfileLinks, claims: ShopClaims, legal: LegalSettings });
type PagesValues = z.infer<typeof PagesSettings>;
type FieldPath = 'maxProfileLinks' | `claims.${number}.text` | `claims.${number}.id` | `claims.${number}.shown` | 'legal.privacy' | 'legal.terms';

const link = 'underline underline-offset-4 hover:text-foreground';

/**
 * Admin > Settings (issue 37): the claims the Reviews page states (edit the text, untick Shown to
 * hide one), how many links a profile may have, and the privacy policy and terms of service.
 * Public pages read them at once after saving.
 */
export function ShopPagesSettingsForm() {
  const { data, isLoading } = useShopSettings();
  const save = useSaveShopSettings();
  const base = useId();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<PagesValues, unknown, PagesValues>({ resolver: zodResolver(PagesSettings) as never });
  const claims = useFieldArray({ control, name: 'claims', keyName: 'key' });
  /** A new claim (as the API takes one): an id of its own, shown, its text to fill in. */
  function addClaim() {
    const taken = new Set(claims.fields.map((c) => c.id));
    let n = claims.fields.length + 1;
    while (taken.has(`claim-${n}`)) n++;
    claims.append({ id: `claim-${n}`, text: '', shown: true }, { shouldFocus: true });
  }

  useEffect(() => {
    if (data) reset({ maxProfileLinks: data.maxProfileLinks, claims: data.claims, legal: data.legal });
  }, [data, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      reset({ maxProfileLinks: saved.maxProfileLinks, claims: saved.claims, legal: saved.legal });
      toast({ title: 'Pages and claims saved', description: 'The Reviews, Privacy Policy and Terms pages show them from now on.' });
    } catch (err) {
      for (const [field, message] of Object.entries(fieldErrors(err))) setError(field as FieldPath, { message });
      toast({ title: 'Could not save', description: errorMessage(err, 'Please try again.'), variant: 'destructive' });
    }
  });

  const id = (name: string) => `${base}-${name}`;
  const describe = (name: string, err: unknown, hint = false) => (err ? `${id(name)}-error` : hint ? `${id(name)}-hint` : undefined);
  const format = 'A blank line between paragraphs; "## " starts a heading, "- " a list item.';

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Claims, profile links and legal pages</CardTitle>
        <CardDescription>
          The claims on the <Link className={link} to="/reviews">Reviews</Link> page, the links a profile may have, and the texts of the{' '}
          <Link className={link} to="/privacy">Privacy Policy</Link> and the <Link className={link} to="/terms">Terms of Service</Link>.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading || !data ? (
          <Skeleton className="h-64 w-full" />
        ) : (
          <form onSubmit={onSubmit} noValidate aria-label="Claims, profile links and legal pages" className="space-y-6">
            <fieldset className="space-y-3">
              <legend className="text-sm font-semibold">Claims on the Reviews page</legend>
              <p className="text-xs text-muted-foreground">Untick Shown to take a claim off the page, change its words to what is true for the shop, remove it, or add your own.</p>
              <ul className="space-y-3" aria-label="Claims">
                {claims.fields.map((c, i) => {
                  const err = errors.claims?.[i]?.text;
                  return (
                    <li key={c.key} className="grid grid-cols-1 items-start gap-2 sm:grid-cols-[minmax(0,1fr)_auto]" data-testid={`claim-row-${c.id}`}>
                      <FormField id={id(`claim-${i}`)} label={`Claim ${i + 1}`} error={err?.message}>
                        <Input id={id(`claim-${i}`)} maxLength={80} aria-invalid={!!err} aria-describedby={describe(`claim-${i}`, err)} {...register(`claims.${i}.text`)} />
                      </FormField>
                      <div className="flex items-center gap-2 sm:mt-6">
                        <label className="flex min-h-10 items-center gap-2 text-sm">
                          <input type="checkbox" className="size-5 accent-amber-600" {...register(`claims.${i}.shown`)} />
                          Shown
                        </label>
                        <Button type="button" variant="ghost" size="icon" aria-label={`Remove claim ${i + 1}`} title="Remove this claim" onClick={() => claims.remove(i)}>
                          <Trash2 aria-hidden="true" />
                        </Button>
                      </div>
                    </li>
                  );
                })}
              </ul>
              {claims.fields.length < CLAIMS_MAX ? (
                <Button type="button" variant="outline" size="sm" onClick={addClaim}>
                  <Plus aria-hidden="true" />
                  Add claim
                </Button>
              ) : (
                <p className="text-xs text-muted-foreground">{`The page holds at most ${CLAIMS_MAX} claims.`}</p>
              )}
            </fieldset>
            <FormField
              id={id('links')}
              label="Links per profile"
              required
              error={errors.maxProfileLinks?.message}
              hint={`How many custom links each profile may have, ${MAX_PROFILE_LINKS_RANGE.min}-${MAX_PROFILE_LINKS_RANGE.max} (3 by default).`}
              className="max-w-xs"
            >
              <Input
                id={id('links')}
                type="number"
                inputMode="numeric"
                min={MAX_PROFILE_LINKS_RANGE.min}
                max={MAX_PROFILE_LINKS_RANGE.max}
                step={1}
                aria-invalid={!!errors.maxProfileLinks}
                aria-describedby={describe('links', errors.maxProfileLinks, true)}
                {...register('maxProfileLinks', { valueAsNumber: true })}
              />
            </FormField>
            <FormField id={id('privacy')} label="Privacy Policy" required error={errors.legal?.privacy?.message} hint={format}>
              <Textarea id={id('privacy')} rows={10} aria-invalid={!!errors.legal?.privacy} aria-describedby={describe('privacy', errors.legal?.privacy, true)} {...register('legal.privacy')} />
            </FormField>
            <FormField id={id('terms')} label="Terms of Service" required error={errors.legal?.terms?.message} hint={format}>
              <Textarea id={id('terms')} rows={10} aria-invalid={!!errors.legal?.terms} aria-describedby={describe('terms', errors.legal?.terms, true)} {...register('legal.terms')} />
            </FormField>
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" variant="gold" disabled={save.isPending || !isDirty}>
                {save.isPending ? 'Saving...' : 'Save claims and pages'}
              </Button>
              {data.updatedAt ? <span className="text-xs text-muted-foreground">Last saved {new Date(data.updatedAt).toLocaleString('en-US')}</span> : null}
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
