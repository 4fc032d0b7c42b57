import { cardType as findCardType } from '#shared/catalogue';
import { finishOf } from './look';
import { MIN_INK, inkAmount, isEngraved } from './engraving';

/**
 * What a logo will do on the chosen metal, found from its pixels (issue 37, decision 37-06), before
 * the design is sent: an opaque background (the frame of the image opaque, and one colour) comes
 * out as a solid block where the metal engraves or prints it; colours cannot be engraved (one
 * tone); Color Metal prints no white (the steel shows there). The designer reads the pixels of a
 * small copy of the logo (a canvas in the browser); tests hand in pixels sharp decoded.
 */

export type LogoFindingId = 'opaque-background' | 'colours-on-engraving' | 'white-on-color-metal';

export interface LogoFinding {
  id: LogoFindingId;
  title: string;
  message: string;
}

/** Share of the frame's pixels that must be opaque for the background to count as opaque. */
const OPAQUE_FRAME = 0.9;
/** Share of the opaque frame within UNIFORM_DISTANCE of its mean colour: "one colour". */
const UNIFORM_FRAME = 0.8;
const UNIFORM_DISTANCE = 40;
/** A pixel with channels further apart than this is a colour, not a grey. */
const CHROMA = 48;
/** Share of the logo's own (opaque, not background) pixels that must be coloured or white to warn. */
const SIGNIFICANT = 0.04;

type Rgb = [number, number, number];
const hex = (rgb: Rgb) => '#' + rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
const dist = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** `px`: RGBA bytes, row by row (as ImageData and sharp's raw output give them). */
export function checkLogoPixels(px: ArrayLike<number>, width: number, height: number, cardTypeId: string): LogoFinding[] {
  const finish = finishOf(cardTypeId) ?? finishOf('standard')!;
  const metal = findCardType(finish.cardType)?.label ?? 'this metal';
  const at = (x: number, y: number): [Rgb, number] => {
    const i = (y * width + x) * 4;
    return [[px[i], px[i + 1], px[i + 2]], px[i + 3]];
  };
  if (width < 2 || height < 2) return [];
  // the frame: every pixel of the outer row and column on each side
  const frame: Array<[Rgb, number]> = [];
  for (let x = 0; x < width; x++) frame.push(at(x, 0), at(x, height - 1));
  for (let y = 1; y < height - 1; y++) frame.push(at(0, y), at(width - 1, y));
  const opaqueFrame = frame.filter(([, a]) => a >= 240).map(([c]) => c);
  const findings: LogoFinding[] = [];
  let background: Rgb | null = null;
  if (opaqueFrame.length >= OPAQUE_FRAME * frame.length) {
    const mean = [0, 1, 2].map((i) => opaqueFrame.reduce((s, c) => s + c[i], 0) / opaqueFrame.length) as Rgb;
    const uniform = opaqueFrame.filter((c) => dist(c, mean) <= UNIFORM_DISTANCE).length >= UNIFORM_FRAME * opaqueFrame.length;
    if (uniform) background = mean;
    const amount = inkAmount(background ?? mean, finish);
    const block = amount >= MIN_INK;
    const what = background ? `an opaque ${hex(background)} background` : 'an opaque background';
    findings.push({
      id: 'opaque-background',
      title: 'Your logo has an opaque background',
      message: block
        ? `Your logo has ${what}: on ${metal} it ${isEngraved(finish.cardType) ? 'will be engraved' : 'will be printed'} as a solid block around the logo. Remove the background, or upload a logo with a transparent background.`
        : `Your logo has ${what}: on ${metal} it is left as bare metal, and the parts of your logo in that tone disappear with it. A logo with a transparent background is safer.`,
    });
  }
  // the logo's own pixels: opaque, and not the background's colour
  let own = 0;
  let coloured = 0;
  let white = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [c, a] = at(x, y);
      if (a < 128) continue;
      if (background && dist(c, background) <= UNIFORM_DISTANCE) continue;
      own++;
      if (Math.max(...c) - Math.min(...c) > CHROMA) coloured++;
      else if (c[0] + c[1] + c[2] >= 3 * 235) white++;
    }
  }
  if (own > 0 && isEngraved(finish.cardType) && coloured >= SIGNIFICANT * own) {
    findings.push({
      id: 'colours-on-engraving',
      title: 'Your logo has colours the metal cannot show',
      message: `${metal} is engraved in one tone: the colours of your logo become shades of the engraving (see "As engraved"). Choose Color Metal for colour, or use a one-colour logo.`,
    });
  }
  const whiteBackground = background !== null && background[0] + background[1] + background[2] >= 3 * 235;
  if (!isEngraved(finish.cardType) && (white >= SIGNIFICANT * Math.max(1, own) || whiteBackground)) {
    findings.push({
      id: 'white-on-color-metal',
      title: 'White is not printed on Color Metal',
      message: 'Color Metal is printed without white ink: where your logo is white, the brushed steel shows (see "As printed").',
    });
  }
  return findings;
}
