import { useMemo, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { TEMPLATE_FOLDERS, templateSvgUrl, type TemplateFolder } from '#shared/templates/urls';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import { FormField, Input } from '#web/components/ui/input';
import { PageSpinner } from '#web/components/ui/spinner';
import { CardPair } from '#web/features/templates/card-preview';
import { apiRequest } from '#web/lib/api';
import { usePageTitle } from '#web/lib/use-page-title';
import { cn } from '#web/lib/utils';

const LABELS: Record<TemplateFolder, string> = { minimal: 'Minimal', classic: 'Classic', modern: 'Modern', simple: 'Simple' };
const ORDER: TemplateFolder[] = ['minimal', 'classic', 'modern', 'simple'];

const FIELDS = [
  { key: 'fullName', label: 'Full Name', placeholder: 'Alexandra Reed' },
  { key: 'jobTitle', label: 'Job Title', placeholder: 'Creative Director' },
  { key: 'email', label: 'Email', placeholder: 'alex@northwind.studio', type: 'email' },
  { key: 'phoneNumber', label: 'Phone', placeholder: '+1 (212) 555-0182', type: 'tel' },
  { key: 'address', label: 'Address', placeholder: '350 Fifth Avenue, New York, NY' },
] as const;
type Key = (typeof FIELDS)[number]['key'];

/** Reads a template's static SVG file (served from the database, cache-busted per visit). */
async function fetchSvg(url: string) {
  const res = await apiRequest('GET', url);
  return res.text();
}

export default function CardGeneratorPage() {
  usePageTitle('Card Generator', 'Try our four metal business card templates: type your details and watch the card update.');
  const [folder, setFolder] = useState<TemplateFolder>('simple');
  const [values, setValues] = useState<Record<Key, string>>({ fullName: '', jobTitle: '', email: '', phoneNumber: '', address: '' });
  // a timestamp against caching, as the static files can be replaced in the template manager
  const [stamp] = useState(() => Date.now());
  const sides = useQueries({
    queries: (['front', 'back'] as const).map((side) => ({
      queryKey: [`${templateSvgUrl(folder, side)}?t=${stamp}`],
      queryFn: () => fetchSvg(`${templateSvgUrl(folder, side)}?t=${stamp}`),
    })),
  });
  const data = useMemo(() => {
    // empty fields show the sample text, so the card never looks broken
    const sample: Record<Key, string> = { fullName: 'Your Name', jobTitle: 'Your Title', email: 'you@example.com', phoneNumber: '+1 (212) 555-0100', address: 'New York, NY' };
    return Object.fromEntries(FIELDS.map((f) => [f.key, values[f.key].trim() || sample[f.key]]));
  }, [values]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Card Generator</h1>
      <p className="mt-2 max-w-2xl text-muted-foreground">Pick a template and type your details: the preview updates as you type.</p>

      <div className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,0.7fr)_minmax(0,1.3fr)]">
        <Card className="lg:self-start">
          <CardContent className="space-y-5 p-6">
            <div role="radiogroup" aria-label="Template" className="grid grid-cols-2 gap-2">
              {ORDER.filter((f) => (TEMPLATE_FOLDERS as readonly string[]).includes(f)).map((f) => (
                <Button key={f} type="button" role="radio" aria-checked={folder === f} variant={folder === f ? 'default' : 'outline'} onClick={() => setFolder(f)}>
                  {LABELS[f]}
                </Button>
              ))}
            </div>
            {FIELDS.map((f) => (
              <FormField key={f.key} id={`gen-${f.key}`} label={f.label}>
                <Input
                  id={`gen-${f.key}`}
                  type={'type' in f ? f.type : 'text'}
                  placeholder={f.placeholder}
                  maxLength={f.key === 'address' ? 300 : 100}
                  value={values[f.key]}
                  onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
                />
              </FormField>
            ))}
          </CardContent>
        </Card>
        <section aria-label="Preview" className="space-y-4">
          {sides.some((s) => s.isLoading) ? (
            <PageSpinner />
          ) : sides.some((s) => s.isError) ? (
            <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-4 text-sm">
              Template preview unavailable
            </p>
          ) : (
            <CardPair layout="stack" front={sides[0].data} back={sides[1].data} name={LABELS[folder]} data={data} />
          )}
          <p className={cn('text-sm text-muted-foreground')}>
            This is a demo. Sign in to design your own card with your logo and the QR code of your digital profile.{' '}
            <Link to="/design" className="underline underline-offset-4">
              Design your card
            </Link>
          </p>
        </section>
      </div>
    </div>
  );
}
