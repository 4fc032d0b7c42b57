import { Plus, Trash2, UserRound } from 'lucide-react';
import { CARD_STYLES } from '#shared/catalogue';
import { BUNDLED_FONTS } from '#shared/fonts';
import { QR_STYLES } from '#shared/schemas/ai';
import { Button } from '#web/components/ui/button';
import { FormField, Input } from '#web/components/ui/input';
import { Spinner } from '#web/components/ui/spinner';
import { HexColorInput } from '#web/features/ai/palette-tab';
import { fontStack } from './fonts';
import { ChoiceSelect } from './form-parts';
import { CARD_TYPE_CHOICES, INFO_FIELDS, TEMPLATE_CHOICES, type FeedbackForm } from './feedback-form';
import { LiveContrast } from './feedback-preview';

/** What each part of the design feedback form gets: the values, a setter, the field errors. */
interface FieldsetProps {
  f: FeedbackForm;
  patch: (p: Partial<FeedbackForm>) => void;
  /** the error of a field under currentDesign (e.g. `colors.text`) */
  err: (path: string) => string | undefined;
}

/** Template, card type and finish. */
export function CardFieldset({ f, patch, err, templates = TEMPLATE_CHOICES }: FieldsetProps & { templates?: Array<{ value: string; label: string }> }) {
  return (
    <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-3">
      <legend className="sr-only">Card</legend>
      <FormField id="f-template" label="Template" error={err('template')}>
        <ChoiceSelect id="f-template" value={f.template} onChange={(e) => patch({ template: e.target.value })} choices={templates} />
      </FormField>
      <FormField id="f-cardtype" label="Card Type" error={err('cardType')}>
        <ChoiceSelect id="f-cardtype" value={f.cardType} onChange={(e) => patch({ cardType: e.target.value })} choices={CARD_TYPE_CHOICES} />
      </FormField>
      <FormField id="f-style" label="Finish" error={err('cardStyle')}>
        <ChoiceSelect id="f-style" value={f.cardStyle} onChange={(e) => patch({ cardStyle: e.target.value })} choices={CARD_STYLES} />
      </FormField>
    </fieldset>
  );
}

/** Background and text colours (with their live contrast) and up to four accents. */
export function ColorsFieldset({ f, patch, err }: FieldsetProps) {
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold">Colors</legend>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField id="f-bg" label="Background" error={err('colors.background')}>
          <HexColorInput id="f-bg" label="Background" value={f.background} onChange={(background) => patch({ background })} invalid={!!err('colors.background')} />
        </FormField>
        <FormField id="f-text" label="Text" error={err('colors.text')}>
          <HexColorInput id="f-text" label="Text" value={f.text} onChange={(text) => patch({ text })} invalid={!!err('colors.text')} />
        </FormField>
      </div>
      <LiveContrast a={f.text} b={f.background} />
      {f.accents.map((a, i) => (
        <div key={i} className="flex items-end gap-2">
          <FormField id={`f-accent-${i}`} label={`Accent ${i + 1}`} error={err(`colors.accents.${i}`)} className="flex-1">
            <HexColorInput id={`f-accent-${i}`} label={`Accent ${i + 1}`} value={a} onChange={(v) => patch({ accents: f.accents.map((x, j) => (j === i ? v : x)) })} />
          </FormField>
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove accent ${i + 1}`} onClick={() => patch({ accents: f.accents.filter((_, j) => j !== i) })}>
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ))}
      {f.accents.length < 4 ? (
        <Button type="button" variant="outline" size="sm" onClick={() => patch({ accents: [...f.accents, '#D4AF37'] })}>
          <Plus aria-hidden="true" /> Add accent color
        </Button>
      ) : null}
    </fieldset>
  );
}

/** The bundled fonts to tick, and any others by name. */
export function FontsFieldset({ f, patch, err }: FieldsetProps) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold">Fonts</legend>
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        {BUNDLED_FONTS.map((bf) => (
          <label key={bf.family} className="inline-flex cursor-pointer items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-current"
              checked={f.fonts.includes(bf.family)}
              onChange={(e) => patch({ fonts: e.target.checked ? [...f.fonts, bf.family] : f.fonts.filter((x) => x !== bf.family) })}
            />
            <span style={{ fontFamily: fontStack(bf.family) }}>{bf.family}</span>
          </label>
        ))}
      </div>
      <FormField id="f-otherfonts" label="Other fonts" hint="Any other fonts you use, separated by commas" error={err('fonts')}>
        <Input id="f-otherfonts" value={f.otherFonts} onChange={(e) => patch({ otherFonts: e.target.value })} maxLength={200} />
      </FormField>
    </fieldset>
  );
}

/** The details printed on the card, typed or filled from the profile. */
export function BusinessInfoFieldset({ f, patch, err, onFillFromProfile, loadingProfile }: FieldsetProps & { onFillFromProfile: () => void; loadingProfile: boolean }) {
  return (
    <fieldset className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <legend className="text-sm font-semibold">Business info</legend>
        <Button type="button" variant="ghost" size="sm" onClick={onFillFromProfile} disabled={loadingProfile}>
          {loadingProfile ? <Spinner className="size-4" /> : <UserRound aria-hidden="true" />} Fill from my profile
        </Button>
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {INFO_FIELDS.map(([k, label]) => (
          <FormField key={k} id={`f-${k}`} label={label} error={err(`businessInfo.${k}`)} className={k === 'address' ? 'sm:col-span-2' : undefined}>
            <Input id={`f-${k}`} value={f.info[k]} onChange={(e) => patch({ info: { ...f.info, [k]: e.target.value } })} maxLength={k === 'address' ? 200 : 254} />
          </FormField>
        ))}
      </div>
    </fieldset>
  );
}

/** The QR code's quiet zone, size and style. */
export function QrFieldset({ f, patch, err }: FieldsetProps) {
  return (
    <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-3">
      <legend className="mb-2 text-sm font-semibold">QR code</legend>
      <FormField id="f-qrmargin" label="Quiet zone (modules)" error={err('qr.margin')}>
        <Input id="f-qrmargin" type="number" min={0} max={10} step={1} value={f.qrMargin} onChange={(e) => patch({ qrMargin: e.target.value })} />
      </FormField>
      <FormField id="f-qrsize" label="Size (mm)" error={err('qr.sizeMm')} hint="Optional">
        <Input id="f-qrsize" type="number" min={5} max={50} step={1} value={f.qrSize} onChange={(e) => patch({ qrSize: e.target.value })} />
      </FormField>
      <FormField id="f-qrstyle" label="Style" error={err('qr.style')}>
        <ChoiceSelect id="f-qrstyle" value={f.qrStyle} onChange={(e) => patch({ qrStyle: e.target.value })} choices={QR_STYLES} />
      </FormField>
    </fieldset>
  );
}
