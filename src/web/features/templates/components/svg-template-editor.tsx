import { useEffect, useRef, useState } from 'react';
import { ExternalLink, Save, Upload } from 'lucide-react';
import { TEMPLATE_FOLDERS, templateSvgUrl, templateThumbnailUrl, type TemplateSide } from '#shared/templates/urls';
import { fillTemplate } from '#shared/templates/fill';
import { SAMPLE_CARD } from '#shared/templates/fields';
import { SVG_FILE_MAX_BYTES, SVG_MANAGER_MESSAGES } from '#shared/templates/messages';
import type { SvgTemplate } from '#shared/schemas/templates';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Textarea } from '#web/components/ui/input';
import { Spinner } from '#web/components/ui/spinner';
import { usePreviewSvgFiles, useSaveSvgFiles } from '#web/features/templates/api';
import { TemplateVersions } from './template-versions';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';

/** One template's SVG manager: replace the front or back file, preview it filled, save with a note. */
export function TemplateEditor({ template }: { template: SvgTemplate }) {
  const [pending, setPending] = useState<Partial<Record<TemplateSide, { text: string; url: string; name: string }>>>({});
  const [notes, setNotes] = useState(template.notes ?? '');
  const [broken, setBroken] = useState<Partial<Record<TemplateSide, boolean>>>({});
  const save = useSaveSvgFiles();
  // every unsaved file is checked on the server at once: it must render with sample data and keep
  // the template's fields (issue 20); the preview then shows it exactly as it would go live
  const check = usePreviewSvgFiles();
  const [checked, setChecked] = useState<{ front: string; back: string; fields: string[] } | null>(null);
  const [sideErrors, setSideErrors] = useState<Partial<Record<TemplateSide, string>>>({});
  const missing = !template.front || !template.back || broken.front || broken.back;

  // blob URLs of unsaved files are released when replaced or when leaving the page
  const urls = useRef<string[]>([]);
  useEffect(() => () => urls.current.forEach((u) => URL.revokeObjectURL(u)), []);
  useEffect(() => setBroken({}), [template.version]);

  async function choose(side: TemplateSide, file: File | undefined) {
    if (!file) return;
    const looksSvg = file.type === 'image/svg+xml' || (!file.type && file.name.toLowerCase().endsWith('.svg'));
    if (!looksSvg) {
      toast({ title: SVG_MANAGER_MESSAGES.invalidType, variant: 'destructive' });
      return;
    }
    if (file.size > SVG_FILE_MAX_BYTES) {
      toast({ title: 'File too large', description: 'Maximum SVG size is 1 MB', variant: 'destructive' });
      return;
    }
    const text = await file.text();
    // preview: the new file filled with the sample person, shown as an image (nothing in it can run)
    let preview: string;
    try {
      preview = fillTemplate(text, SAMPLE_CARD, { qrUrl: `${window.location.origin}/templates` });
    } catch {
      preview = text;
    }
    const url = URL.createObjectURL(new Blob([preview], { type: 'image/svg+xml' }));
    urls.current.push(url);
    const next = { ...pending, [side]: { text, url, name: file.name } };
    setPending(next);
    toast({ title: SVG_MANAGER_MESSAGES.ready(side) });
    await runCheck(next);
  }

  async function runCheck(next: typeof pending) {
    setChecked(null);
    setSideErrors({});
    try {
      const r = await check.mutateAsync({
        templateId: template.id,
        folder: template.folder as (typeof TEMPLATE_FOLDERS)[number],
        updates: { ...(next.front ? { front: next.front.text } : {}), ...(next.back ? { back: next.back.text } : {}) },
      });
      setChecked(r);
    } catch (err) {
      const fe = fieldErrors(err);
      const errs: Partial<Record<TemplateSide, string>> = {};
      for (const side of ['front', 'back'] as const) if (next[side]) errs[side] = fe[`updates.${side}`] ?? errorMessage(err, 'This file cannot be used');
      setSideErrors(errs);
    }
  }

  async function onSave() {
    try {
      await save.mutateAsync({
        templateId: template.id,
        folder: template.folder as (typeof TEMPLATE_FOLDERS)[number],
        updates: { ...(pending.front ? { front: pending.front.text } : {}), ...(pending.back ? { back: pending.back.text } : {}) },
        notes,
      });
      setPending({});
      setChecked(null);
      toast({ title: SVG_MANAGER_MESSAGES.saved, description: SVG_MANAGER_MESSAGES.savedDescription });
    } catch (err) {
      toast({ title: 'Error', description: errorMessage(err, SVG_MANAGER_MESSAGES.saveFailed), variant: 'destructive' });
    }
  }

  const hasFiles = !!pending.front || !!pending.back;
  const dirty = hasFiles || notes !== (template.notes ?? '');
  // files go live only once the server's check passed
  const canSave = dirty && (!hasFiles || (checked !== null && !check.isPending));
  return (
    <Card data-testid={`svg-template-${template.folder}`}>
      <CardHeader>
        <CardTitle>
          {template.name} <span className="text-sm font-normal text-muted-foreground">#{template.id} · {template.folder} · version {template.version}</span>
        </CardTitle>
        <CardDescription>{template.description}</CardDescription>
        {missing ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            {SVG_MANAGER_MESSAGES.missing}
          </p>
        ) : null}
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
          {(['front', 'back'] as const).map((side) => {
            const saved = template[side] ? templateSvgUrl(template.folder, side, template.version) : null;
            // the saved design as the server renders it (bundled fonts, sample person, real QR code)
            const rendered = template[side] ? templateThumbnailUrl(template.id, side, template.version) : null;
            const src = (pending[side] && checked ? checked[side] : pending[side]?.url) ?? rendered;
            return (
              <div key={side} className="space-y-3">
                <div className="flex items-center justify-between">
                  <h3 className="font-medium capitalize">
                    {side}
                    {pending[side] ? <span className="ml-2 text-xs font-normal text-amber-700 dark:text-gold">unsaved: {pending[side]!.name}</span> : null}
                  </h3>
                  {saved ? (
                    <a href={saved} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-sm underline underline-offset-4">
                      {side}.svg <ExternalLink className="size-3.5" aria-hidden="true" />
                    </a>
                  ) : null}
                </div>
                <div className="aspect-[7/4] overflow-hidden rounded-lg bg-black ring-1 ring-border">
                  {src ? (
                    // an <img> never runs anything inside the SVG, even an unsaved file
                    <img
                      src={src}
                      alt={`${template.name} ${side}`}
                      className="h-full w-full object-contain"
                      onError={() => !pending[side] && setBroken((b) => ({ ...b, [side]: true }))}
                      data-testid={`svg-preview-${template.folder}-${side}`}
                    />
                  ) : (
                    <div className="flex h-full items-center justify-center text-sm text-neutral-400">{SVG_MANAGER_MESSAGES.missing}</div>
                  )}
                </div>
                {pending[side] ? (
                  sideErrors[side] ? (
                    <p role="alert" className="text-sm font-medium text-destructive" data-testid={`svg-error-${template.folder}-${side}`}>
                      {sideErrors[side]}
                    </p>
                  ) : checked ? (
                    <p className="text-xs text-muted-foreground" data-testid={`svg-checked-${template.folder}-${side}`}>
                      Checked: renders with sample data and keeps the fields ({checked.fields.join(', ')}).
                    </p>
                  ) : (
                    <p className="text-xs text-muted-foreground">Checking the file…</p>
                  )
                ) : null}
                <label className="inline-flex cursor-pointer items-center gap-2 rounded-md border border-input px-3 py-2 text-sm hover:bg-accent">
                  <Upload className="size-4" aria-hidden="true" />
                  <span>Replace {side}.svg</span>
                  <input
                    type="file"
                    accept=".svg,image/svg+xml"
                    className="sr-only"
                    aria-label={`Replace ${template.name} ${side}.svg`}
                    data-testid={`file-${template.folder}-${side}`}
                    onChange={(e) => {
                      void choose(side, e.target.files?.[0]);
                      e.target.value = '';
                    }}
                  />
                </label>
              </div>
            );
          })}
        </div>
        <FormField id={`notes-${template.id}`} label="Notes (optional)">
          <Textarea id={`notes-${template.id}`} value={notes} maxLength={2000} onChange={(e) => setNotes(e.target.value)} placeholder="What changed and why" />
        </FormField>
        <Button onClick={onSave} disabled={!canSave || save.isPending} variant="gold">
          {save.isPending ? <Spinner className="size-4" label="Saving" /> : <Save />}
          {save.isPending ? 'Saving...' : 'Save to Server'}
        </Button>
        <TemplateVersions templateId={template.id} folder={template.folder} />
      </CardContent>
    </Card>
  );
}
