import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { StudioSettings, type StudioSettings as StudioValues } from '#shared/schemas/settings';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input, Textarea } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useSaveShopSettings, useShopSettings } from '#web/features/settings/api';

/**
 * Admin > Settings: the studio's address, phone, hours and pickup instructions (issue 35), shown in
 * pickup e-mails, on pickup orders' pages, Help and About.
 */
export function StudioSettingsForm() {
  const { data, isLoading } = useShopSettings();
  const save = useSaveShopSettings();
  const ids = { address: useId(), phone: useId(), hours: useId(), pickup: useId() };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<StudioValues, unknown, StudioValues>({ resolver: zodResolver(StudioSettings) as never });

  useEffect(() => {
    if (data) reset(data.studio);
  }, [data, reset]);

  const onSubmit = handleSubmit(async (studio) => {
    try {
      const saved = await save.mutateAsync({ studio });
      reset(saved.studio);
      toast({ title: 'Studio details saved', description: 'Pages and pickup e-mails show them from now on.' });
    } catch (err) {
      for (const [field, message] of Object.entries(fieldErrors(err))) {
        const key = field.replace(/^studio\./, '') as keyof StudioValues;
        if (key in ids || key === 'pickupInstructions') setError(key, { message });
      }
      toast({ title: 'Could not save', description: errorMessage(err, 'Please try again.'), variant: 'destructive' });
    }
  });

  const describe = (id: string, err: unknown, hint = false) => (err ? `${id}-error` : hint ? `${id}-hint` : undefined);
  const placeholder = data?.placeholders.includes('studio.address');

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Studio details</CardTitle>
        <CardDescription>Shown in pickup e-mails, on the order page of pickup orders, on Help and on About.</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading || !data ? (
          <Skeleton className="h-64 w-full" />
        ) : (
          <form onSubmit={onSubmit} noValidate aria-label="Studio details" className="grid grid-cols-1 gap-4 md:grid-cols-2">
            {placeholder ? (
              <p role="status" className="rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm md:col-span-2" data-testid="studio-placeholder">
                The studio&apos;s street address is not set yet: customers see only &quot;{data.studio.address}&quot;. Enter the full address below.
              </p>
            ) : null}
            <FormField id={ids.address} label="Address" required error={errors.address?.message} hint="One line per row, as on an envelope">
              <Textarea id={ids.address} rows={3} maxLength={300} aria-invalid={!!errors.address} aria-describedby={describe(ids.address, errors.address, true)} {...register('address')} />
            </FormField>
            <FormField id={ids.hours} label="Opening hours" required error={errors.hours?.message} hint="One line per row: Mon-Fri 9:00-6:00 EST">
              <Textarea id={ids.hours} rows={3} maxLength={500} aria-invalid={!!errors.hours} aria-describedby={describe(ids.hours, errors.hours, true)} {...register('hours')} />
            </FormField>
            <FormField id={ids.phone} label="Phone" required error={errors.phone?.message}>
              <Input id={ids.phone} type="tel" maxLength={40} aria-invalid={!!errors.phone} aria-describedby={describe(ids.phone, errors.phone)} {...register('phone')} />
            </FormField>
            <FormField id={ids.pickup} label="Pickup instructions" error={errors.pickupInstructions?.message} className="md:col-span-2">
              <Textarea id={ids.pickup} rows={3} maxLength={1000} aria-invalid={!!errors.pickupInstructions} aria-describedby={describe(ids.pickup, errors.pickupInstructions)} {...register('pickupInstructions')} />
            </FormField>
            <div className="flex items-center gap-3 md:col-span-2">
              <Button type="submit" variant="gold" disabled={save.isPending || !isDirty}>
                {save.isPending ? 'Saving...' : 'Save studio details'}
              </Button>
              {data.updatedAt ? <span className="text-xs text-muted-foreground">Last saved {new Date(data.updatedAt).toLocaleString('en-US')}</span> : null}
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
