import type { PaletteColor } from '#shared/schemas/ai';
import { wcagLevel } from '#shared/ai/color';
import { Badge } from '#web/components/ui/badge';
import { CopyButton } from './copy-button';

export function ContrastPill({ ratio, against }: { ratio: number; against: 'white' | 'black' }) {
  const level = wcagLevel(ratio);
  const variant = level === 'AAA' || level === 'AA' ? 'green' : level === 'AA Large' ? 'yellow' : 'red';
  return (
    <span className="inline-flex items-center gap-1.5 text-xs">
      <span aria-hidden="true" className={`inline-block size-3 rounded-full border border-border ${against === 'white' ? 'bg-white' : 'bg-black'}`} />
      <span className="tabular-nums">{ratio.toFixed(2)}:1</span>
      <Badge variant={variant} className="px-1.5 py-0 text-[10px]">
        {level}
      </Badge>
      <span className="sr-only">on {against}</span>
    </span>
  );
}

/** One palette colour: a large swatch with its name, the hex code with a copy button, role, use and contrast. */
export function Swatch({ color }: { color: PaletteColor }) {
  return (
    <li className="overflow-hidden rounded-lg border border-border bg-card" data-testid="swatch" data-hex={color.hex} data-role={color.role}>
      <div className="flex h-24 flex-col justify-between p-3" style={{ backgroundColor: color.hex, color: color.textOn }}>
        <span className="text-xs font-semibold uppercase tracking-wider opacity-90">{color.role}</span>
        <span className="text-sm font-medium">{color.name}</span>
      </div>
      <div className="space-y-2 p-3">
        <div className="flex items-center justify-between gap-2">
          <code className="font-mono text-sm font-semibold" data-testid="swatch-hex">
            {color.hex}
          </code>
          <CopyButton text={color.hex} label={`Copy ${color.hex}`} />
        </div>
        <p className="text-xs text-muted-foreground">{color.usage}</p>
        <div className="flex flex-col gap-1">
          <ContrastPill ratio={color.contrastOnWhite} against="white" />
          <ContrastPill ratio={color.contrastOnBlack} against="black" />
        </div>
      </div>
    </li>
  );
}

export function SwatchGrid({ colors }: { colors: PaletteColor[] }) {
  const css = colors.map((c) => `--color-${c.role}: ${c.hex};`).join('\n');
  return (
    <div className="space-y-3">
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Colour palette">
        {colors.map((c) => (
          <Swatch key={`${c.role}-${c.hex}`} color={c} />
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <span>Copy all:</span>
        <span className="inline-flex items-center gap-1">
          hex list <CopyButton text={colors.map((c) => c.hex).join(', ')} label="Copy all hex codes" />
        </span>
        <span className="inline-flex items-center gap-1">
          CSS variables <CopyButton text={css} label="Copy as CSS variables" />
        </span>
      </div>
    </div>
  );
}
