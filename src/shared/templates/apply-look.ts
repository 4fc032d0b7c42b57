import { BUNDLED_FONTS } from '#shared/fonts';
import { CARD_FINISHES, LOGO_SCALE_MAX, LOGO_SCALE_MIN, allowedAccent, allowedFont, toneOnFinish, type CardLook } from './look';
import { findElements, fmt, numAttr, replaceElements, serializeAttrs, type FoundElement } from './xml';
import { W as CARD_WIDTH } from './designs/common';

/** Built-in designs draw on the shared black-metal background; only they take a card type's finish. */
const METAL_SHEEN_ID = 'mc-sheen';
const ACCENT_CLASS = 'card-accent';
const DISPLAY_FIELDS = new Set(['fullName', 'companyName']);

function openTag(el: FoundElement, attrs: Map<string, string>): string {
  return `<${el.tag}${serializeAttrs(attrs)}${el.selfClosing ? '/>' : '>'}`;
}

/**
 * Before the fill: the customer's font for the name and company, weights a metal can hold, and the
 * logo box moved and sized. Pure string work on the template (the filler then lays text out with
 * the chosen font's real metrics).
 */
export function lookBeforeFill(svg: string, look: CardLook | null | undefined): string {
  if (!look) return svg;
  const family = allowedFont(look.font);
  const generic = family ? (BUNDLED_FONTS.find((f) => f.family === family)?.generic ?? 'sans-serif') : null;
  const metal = !!(look.cardType && look.cardType in CARD_FINISHES);
  let out = svg;

  const raise = (a: Map<string, string>, name: string) => {
    const v = Number(a.get(name));
    if (metal && Number.isFinite(v) && v > 0 && v < 400) {
      a.set(name, '400');
      return true;
    }
    return false;
  };

  // text: the display font, the accent marker on the name, weights a metal can hold
  const texts = findElements(out, (tag) => tag === 'text');
  const src1 = out;
  out = replaceElements(src1, texts, (el) => {
    const a = new Map(el.attrs);
    const field = a.get('data-field');
    let changed = raise(a, 'font-weight');
    if (field && DISPLAY_FIELDS.has(field) && family) {
      a.set('font-family', `${family}, ${generic}`);
      changed = true;
    }
    if (field === 'fullName') {
      a.set('class', [a.get('class'), ACCENT_CLASS].filter(Boolean).join(' '));
      changed = true;
    }
    return changed ? openTag(el, a) + (el.selfClosing ? '' : src1.slice(el.openEnd, el.end)) : src1.slice(el.start, el.end);
  });

  // stacks' labels
  const labelled = findElements(out, (tag, a) => tag === 'g' && a.has('data-label-font-weight'));
  const src2 = out;
  out = replaceElements(src2, labelled, (el) => {
    const a = new Map(el.attrs);
    return raise(a, 'data-label-font-weight') ? openTag(el, a) + (el.selfClosing ? '' : src2.slice(el.openEnd, el.end)) : src2.slice(el.start, el.end);
  });

  // the logo box, moved and sized
  const moveLogo = !!look.logoScale || (!!look.logoPosition && look.logoPosition !== 'template');
  const logos = moveLogo ? findElements(out, (tag, a) => tag === 'g' && a.get('data-slot') === 'logo') : [];
  const src3 = out;
  out = replaceElements(src3, logos, (el) => {
    const a = new Map(el.attrs);
    const x = numAttr(a, 'data-x', 0);
    const y = numAttr(a, 'data-y', 0);
    const w = numAttr(a, 'data-width', 120);
    const h = numAttr(a, 'data-height', 120);
    const scale = Math.min(LOGO_SCALE_MAX, Math.max(LOGO_SCALE_MIN, look.logoScale ?? 1));
    const nw = Math.min(CARD_WIDTH - 160, w * scale);
    const nh = h * scale;
    let nx = x;
    if (look.logoPosition === 'left') nx = 80;
    else if (look.logoPosition === 'center') nx = (CARD_WIDTH - nw) / 2;
    else if (look.logoPosition === 'right') nx = CARD_WIDTH - 80 - nw;
    a.set('data-x', fmt(nx));
    a.set('data-y', fmt(Math.max(20, y - (nh - h) / 2)));
    a.set('data-width', fmt(nw));
    a.set('data-height', fmt(nh));
    if (look.logoPosition && look.logoPosition !== 'template') a.set('data-align', look.logoPosition);
    return openTag(el, a) + (el.selfClosing ? '' : src3.slice(el.openEnd, el.end));
  });
  return out;
}

const COLOR_ATTR = /(\s(?:fill|stroke|stop-color)=")(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6})(")/g;

/**
 * After the fill: a built-in design takes the card type's metal (its sheen), its engraving or print
 * colour (every grey keeps its place between metal and engraving) and the chosen accent on the
 * name. The QR code keeps its own dark-on-light colours (a phone must read it).
 */
export function lookAfterFill(svg: string, look: CardLook | null | undefined): string {
  const finish = look?.cardType ? CARD_FINISHES[look.cardType] : undefined;
  if (!finish || !svg.includes(`id="${METAL_SHEEN_ID}"`)) return svg;
  let out = svg;

  // re-tone everything but the QR code
  const qr = findElements(out, (tag, a) => tag === 'g' && a.get('class') === 'qr-code');
  let toned = '';
  let pos = 0;
  const tone = (s: string) => s.replace(COLOR_ATTR, (m, pre: string, c: string, post: string) => `${pre}${toneOnFinish(c, finish) ?? c}${post}`);
  for (const el of qr) {
    toned += tone(out.slice(pos, el.start)) + out.slice(el.start, el.end);
    pos = el.end;
  }
  out = toned + tone(out.slice(pos));
  // the metal's own sheen (after the re-toning: these are the finish's real colours)
  const sheen = findElements(out, (tag, a) => tag === 'linearGradient' && a.get('id') === METAL_SHEEN_ID);
  out = replaceElements(out, sheen, (el) => openTag(el, el.attrs) + finish.sheen.map(([o, c]) => `<stop offset="${o}" stop-color="${c}"/>`).join('') + `</${el.tag}>`);

  const accent = allowedAccent(finish.cardType, look?.accent);
  if (accent && accent !== finish.accents[0]) {
    const named = findElements(out, (tag, a) => tag === 'text' && (a.get('class') ?? '').split(/\s+/).includes(ACCENT_CLASS));
    const src = out;
    out = replaceElements(src, named, (el) => {
      const a = new Map(el.attrs);
      a.set('fill', accent);
      return openTag(el, a) + (el.selfClosing ? '' : src.slice(el.openEnd, el.end));
    });
  }
  return out;
}
