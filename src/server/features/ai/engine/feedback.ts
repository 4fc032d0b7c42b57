/**
 * Design feedback: measures the given design (contrast ratios, legibility on the chosen metal
 * finish, text length against the template's space, number of fonts and colours, the QR code's
 * quiet zone, size and contrast) and answers the user's question with those findings.
 * Deterministic and offline.
 */
import { CARD_TYPES } from '#shared/catalogue';
import { BUNDLED_FONTS, DEFAULT_FONT_FAMILY, bundledFont } from '#shared/fonts';
import { fitText } from '#shared/templates/fit';
import { measureText } from '#shared/templates/measure';
import type { CurrentDesign, DesignFeedbackInput, DesignFeedbackResponse, DesignFinding, FindingSeverity, FindingTopic } from '#shared/schemas/ai';
import { colorName, contrastRatio, deltaE, hexToOklch, relativeLuminance, roundRatio } from '#shared/ai/color';
import { finishSurface, legibilityOnFinish, type FinishStyle } from './finishes';
import { FIELD_LABELS, MIN_READABLE_PT, TEMPLATE_MODELS, ptToUnits, unitsToPt, type ZoneField } from '#shared/ai/layouts';
import { CARD_FINISHES } from '#shared/templates/look';
import { priceChange } from '#shared/ai/metal-fit';
import { ensureContrast } from './palette';
import type { RealZone, TemplateLayout } from './real-layout';

const SEVERITY_ORDER: Record<FindingSeverity, number> = { critical: 0, warning: 1, info: 2, good: 3 };
const fmt = (r: number) => `${r.toFixed(2)}:1`;

/** Profile URLs are ~30-45 characters; at error correction H that is QR version 4 (33 modules). */
const QR_MODULES = 33;

interface Facts {
  templateName: string;
  background: string;
  text: string;
  accents: string[];
  fonts: string[];
  headingFont: string;
  detailFont: string;
  colorCount: number;
}

function finding(id: string, topic: FindingTopic, severity: FindingSeverity, title: string, detail: string, value?: number): DesignFinding {
  return value === undefined ? { id, topic, severity, title, detail } : { id, topic, severity, title, detail, value };
}

/** The built-in model of a template id, for callers without the template's real layout. */
function fallbackLayout(id: number): TemplateLayout {
  const m = TEMPLATE_MODELS[id as keyof typeof TEMPLATE_MODELS] ?? TEMPLATE_MODELS[17];
  return { id: m.id, name: m.name, qrBorder: m.qrBorder, qrSide: m.qrSide, zones: m.zones.map((z) => ({ ...z, x: 0, y: 0 })) };
}

/**
 * Every measurable check of the design, most severe first. `layout`: the template's real layout
 * (read from its SVG: real-layout.ts); without it the built-in model of the four designs is used.
 * Each property is judged once, on what the chosen metal really makes (issue 37): on an engraved
 * metal the text is the engraving and the background the metal, so the typed colours are not
 * judged as if printed, and no advice asks for a colour the metal cannot make.
 */
export function analyseDesign(design: CurrentDesign, layout?: TemplateLayout): { findings: DesignFinding[]; facts: Facts; score: number } {
  const t = layout ?? fallbackLayout(design.template);
  const findings: DesignFinding[] = [];
  const colorsGiven = !!design.colors;
  const typedBackground = design.colors?.background ?? '#000000';
  const typedText = design.colors?.text ?? '#FFFFFF';
  const engraved = !!design.cardType && design.cardType !== 'color';
  const ct = design.cardType ? CARD_TYPES.find((c) => c.id === design.cardType)! : null;
  const style: FinishStyle = design.cardStyle === 'Brushed' || design.cardStyle === 'Mirror' ? design.cardStyle : 'Matte';
  const surface = design.cardType ? finishSurface(design.cardType, style, typedBackground) : null;
  // what is really made: engraved metals show the engraving on the bare metal, in one colour
  const engraving = design.cardType && engraved ? (CARD_FINISHES[design.cardType].accents.find((a) => deltaE(a, typedText) < 0.08) ?? CARD_FINISHES[design.cardType].ink) : null;
  const background = surface && engraved ? surface.surface : typedBackground;
  const text = engraving ? engraving.toUpperCase() : typedText;
  const accents = engraved ? [] : (design.colors?.accents ?? []);

  if (engraved && colorsGiven && ct) {
    const typedAccents = design.colors?.accents ?? [];
    const differs = deltaE(typedText, text) > 0.08 || deltaE(typedBackground, background) > 0.12 || typedAccents.length > 0;
    if (differs) {
      const change = priceChange(design.cardType!, 'color');
      const cost = change ? ` (${change.differenceCents >= 0 ? '+' : '-'}$${(Math.abs(change.differenceCents) / 100).toFixed(2)} a card)` : '';
      findings.push(
        finding(
          'finish-engraved',
          'finish',
          'info',
          `${ct.label} is engraved, not printed`,
          `On ${ct.label} the card is the metal itself (about ${background}) and the text is engraved (${colorName(text)} ${text}), so your colours${typedAccents.length ? ' and accents' : ''} are not printed; the checks below judge the engraving. Only Color Metal prints colours${cost}.`,
        ),
      );
    }
  }

  // ---- contrast: one judgement, on the metal in its worst light when a metal is chosen ----
  const where = ct ? `${ct.label} with a ${style}${design.cardStyle === 'Custom' ? ' (Custom finishes are checked as Matte)' : ''} finish` : '';
  const ratio = surface ? legibilityOnFinish(text, surface).contrast : roundRatio(contrastRatio(text, background));
  const pair = `${text} on ${surface ? where : background}${colorsGiven || engraved ? '' : ` (the ${t.name} template's default)`}`;
  // a better colour only where colours are printed, and only one that passes on that metal itself
  let fix: string;
  if (!engraved) {
    const target = surface ? (relativeLuminance(text) > relativeLuminance(background) ? surface.range[1] : surface.range[0]) : background;
    const better = ensureContrast(hexToOklch(text), target, 7);
    const betterRatio = surface ? legibilityOnFinish(better, surface).contrast : roundRatio(contrastRatio(better, background));
    if (betterRatio > ratio && betterRatio >= 4.5) fix = `Try ${colorName(better)} ${better} (${fmt(betterRatio)}).`;
    else if (surface && style === 'Mirror') fix = 'Choose a Matte or Brushed finish: a mirror reflects its surroundings.';
    else fix = 'Choose a text colour much lighter or darker than the background.';
  } else if (style !== 'Matte') {
    fix = 'Choose a Matte finish: the engraving keeps its contrast in every light.';
  } else {
    fix = 'Choose another metal for more contrast.';
  }
  const measured = surface ? ` where the metal catches the light` : '';
  if (ratio < 3) {
    findings.push(finding('contrast-text', 'contrast', 'critical', 'Text contrast is too low', `Text ${pair} has a contrast of ${fmt(ratio)}${measured}, below even the 3:1 minimum for large text: small contact details will be hard to read. ${fix}`, ratio));
  } else if (ratio < 4.5) {
    findings.push(finding('contrast-text', 'contrast', 'warning', 'Text contrast is below WCAG AA', `Text ${pair} has ${fmt(ratio)}${measured}: enough for a large name, not for 7-8 pt details (AA needs 4.5:1). ${fix}`, ratio));
  } else if (ratio < 7) {
    findings.push(finding('contrast-text', 'contrast', 'info', 'Text contrast passes AA', `Text ${pair} keeps at least ${fmt(ratio)}: it passes WCAG AA (4.5:1) but not AAA (7:1).${engraved ? '' : ` ${fix.replace(/^Try/, 'For a reader in dim light, try')}`}`, ratio));
  } else {
    findings.push(finding('contrast-text', 'contrast', 'good', 'Text contrast is excellent', `Text ${pair} keeps at least ${fmt(ratio)}, above the AAA level of 7:1.`, ratio));
  }
  for (const [i, a] of accents.entries()) {
    const r = roundRatio(contrastRatio(a, background));
    if (r < 3) {
      findings.push(finding(`contrast-accent-${i}`, 'contrast', 'warning', `Accent ${a} is faint on the background`, `Accent ${colorName(a)} ${a} reaches only ${fmt(r)} on ${background}: use it for decoration, never for text or the QR code.`, r));
    }
  }
  if (accents.length && accents.every((a) => contrastRatio(a, background) >= 3)) {
    findings.push(finding('contrast-accents', 'contrast', 'good', 'Accents stand out', `Every accent keeps at least 3:1 against ${background} (lowest ${fmt(roundRatio(Math.min(...accents.map((a) => contrastRatio(a, background)))))}).`));
  }

  // ---- fonts ----
  const fonts = [...new Map(design.fonts.map((f) => [f.toLowerCase(), f])).values()];
  const unknown = fonts.filter((f) => !bundledFont(f));
  const known = fonts.map((f) => bundledFont(f)?.family).filter((f): f is string => !!f);
  const headingFont = known[0] ?? 'Inter';
  const detailFont = known.length > 1 ? known[known.length - 1] : headingFont;
  if (fonts.length === 0) {
    findings.push(finding('fonts-count', 'fonts', 'info', 'No font chosen', `With no font set the card is printed in Inter, a legible sans-serif. Bundled families: ${BUNDLED_FONTS.map((b) => b.family).join(', ')}.`, 0));
  } else if (fonts.length <= 2) {
    findings.push(finding('fonts-count', 'fonts', 'good', `${fonts.length} font ${fonts.length === 1 ? 'family' : 'families'}`, `${fonts.join(' and ')}: ${fonts.length === 1 ? 'one family in two weights keeps the card calm' : 'a heading and a detail font is the classic pairing'}.`, fonts.length));
  } else {
    findings.push(finding('fonts-count', 'fonts', fonts.length >= 4 ? 'critical' : 'warning', `${fonts.length} fonts compete`, `${fonts.join(', ')} on a 3.5 x 2 inch card is too many: keep ${headingFont} for the name and one sans-serif for details.`, fonts.length));
  }
  if (unknown.length) {
    findings.push(finding('fonts-unbundled', 'fonts', 'warning', `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not available`, `Cards are rendered only with the bundled fonts (${BUNDLED_FONTS.map((b) => b.family).join(', ')}); ${unknown.join(', ')} would be replaced by ${DEFAULT_FONT_FAMILY}.`, unknown.length));
  }
  if (detailFont === 'Playfair Display' && known.length > 0) {
    findings.push(finding('fonts-detail-serif', 'fonts', 'warning', 'Serif hairlines in small details', 'Playfair Display\'s thin hairlines break up at 7-8 pt on metal: use Inter or Montserrat for contact details and keep Playfair for the name.'));
  }

  // ---- colours ----
  const palette = [...new Set([background, text, ...accents])];
  const n = palette.length;
  if (engraved) findings.push(finding('colors-count', 'colors', 'good', 'One colour: the engraving', `${ct!.label} shows the engraving on the metal: a calm, two-tone card by nature.`, 2));
  else if (n <= 3) findings.push(finding('colors-count', 'colors', 'good', `${n} colours`, `${n} colours (${palette.join(', ')}) keep the card clean; metal cards look best with one or two plus the metal.`, n));
  else if (n === 4) findings.push(finding('colors-count', 'colors', 'info', '4 colours', `${palette.join(', ')}: acceptable, but each extra colour is another print pass on Color Metal and dilutes the accent.`, n));
  else findings.push(finding('colors-count', 'colors', 'warning', `${n} colours is busy`, `${palette.join(', ')} on one card reads as noisy: keep the background, the text colour and one accent.`, n));
  for (let i = 0; i < accents.length; i++) {
    for (let j = i + 1; j < accents.length; j++) {
      if (deltaE(accents[i], accents[j]) < 0.05) {
        findings.push(finding(`colors-similar-${i}-${j}`, 'colors', 'info', 'Near-duplicate accents', `${accents[i]} and ${accents[j]} are almost the same colour (difference ${deltaE(accents[i], accents[j]).toFixed(3)} in OKLab): merge them into one.`));
      }
    }
  }

  // ---- text against the template's space ----
  const info: Partial<Record<ZoneField, string>> = design.businessInfo ?? {};
  const present = (Object.keys(FIELD_LABELS) as ZoneField[]).filter((f) => typeof info[f] === 'string' && info[f]!.length > 0);
  if (present.length === 0) {
    findings.push(finding('text-missing', 'text', 'info', 'No business details to check', 'Add your name, title and contact details to check how they fit the card.'));
  } else {
    let shrunk = 0;
    let cut = 0;
    let worstUse = 0;
    for (const field of present) {
      const value = info[field]!;
      const zone = tightestZone(t.zones.filter((zz) => zz.field === field), value, headingFont, detailFont);
      if (!zone) continue;
      const fam = zone.role === 'heading' ? headingFont : detailFont;
      const style = { fontFamily: fam, fontSize: ptToUnits(zone.sizePt), fontWeight: zone.weight };
      const res = fitZone(value, zone, fam);
      const label = FIELD_LABELS[field];
      const pt = unitsToPt(res.fontSize);
      if (res.truncated) {
        cut++;
        findings.push(finding(`text-${field}`, 'text', 'critical', `The ${label} does not fit`, `"${value}" (${[...value].length} characters) needs more than ${zone.maxLines} line${zone.maxLines > 1 ? 's' : ''} in the ${t.name} layout even at ${MIN_READABLE_PT} pt; it would be cut to "${res.lines[res.lines.length - 1]}". Shorten it${field === 'address' ? ' (street and city are enough; the full address can live on your profile)' : ''}.`, [...value].length));
      } else if (res.fontSize < style.fontSize - 0.01) {
        shrunk++;
        findings.push(finding(`text-${field}`, 'text', pt < zone.sizePt * 0.8 ? 'warning' : 'info', `The ${label} is shrunk to fit`, `"${value}" is set at ${pt.toFixed(1)} pt instead of ${zone.sizePt} pt to fit the ${t.name} layout's ${Math.round((zone.maxWidth / 300) * 25.4)} mm line.`, Math.round(pt * 10) / 10));
      } else {
        // share of the available line used (wrapped text fills its lines)
        const used = res.lines.length > 1 ? 1 : measureText(value, style) / zone.maxWidth;
        worstUse = Math.max(worstUse, Math.min(100, Math.round(used * 100)));
      }
    }
    if (!cut && !shrunk) findings.push(finding('text-fit', 'text', 'good', 'All text fits', `All ${present.length} details fit the ${t.name} layout at their normal size (the longest line uses ${worstUse}% of its space).`, worstUse));
    const frontDetails = present.filter((f) => t.zones.some((zz) => zz.field === f && zz.side === 'front')).length;
    if (frontDetails > 5) findings.push(finding('text-crowded', 'layout', 'warning', 'Crowded front', `${frontDetails} lines on the front of ${t.name}: move address or website to the back or the digital profile.`, frontDetails));
  }

  // ---- QR code ----
  const qrStyle = design.qr?.style ?? 'standard';
  const margin = design.qr?.margin ?? (qrStyle === 'circular' ? 0 : 2);
  if (t.qrBorder && margin < 2) {
    findings.push(finding('qr-quiet-zone', 'qr', 'critical', 'The QR frame touches the code', `${t.name} draws a green frame around the QR code; with a quiet zone of ${margin} module${margin === 1 ? '' : 's'} the frame merges with the code and scanners lose the finder patterns. Keep at least 2 modules (ISO 18004 recommends 4).`, margin));
  } else if (margin === 0 && qrStyle !== 'circular') {
    findings.push(finding('qr-quiet-zone', 'qr', 'critical', 'No quiet zone around the QR code', 'The code has no clear margin: text or the card edge next to it will stop many scanners. Keep at least 2 modules clear (4 is the ISO 18004 recommendation).', margin));
  } else if (margin === 0) {
    findings.push(finding('qr-quiet-zone', 'qr', 'warning', 'Circular QR without margin', 'The circular style has no quiet zone of its own: keep the ring clear of text and the card edge by at least 2 modules.', margin));
  } else if (margin < 2) {
    findings.push(finding('qr-quiet-zone', 'qr', 'warning', 'Narrow quiet zone', `A quiet zone of ${margin} module is below the 2 modules phone cameras need reliably; ISO 18004 recommends 4.`, margin));
  } else if (margin < 4) {
    findings.push(finding('qr-quiet-zone', 'qr', 'good', 'Quiet zone is adequate', `${margin} modules of quiet zone: phone cameras read it; keep text and frames outside that margin (ISO 18004 recommends 4 for print).`, margin));
  } else {
    findings.push(finding('qr-quiet-zone', 'qr', 'good', 'Generous quiet zone', `${margin} modules of quiet zone meets the ISO 18004 recommendation.`, margin));
  }
  if (design.qr?.sizeMm !== undefined) {
    const moduleMm = design.qr.sizeMm / (QR_MODULES + 2 * margin);
    const m = Math.round(moduleMm * 100) / 100;
    if (moduleMm < 0.35) findings.push(finding('qr-size', 'qr', 'critical', 'QR code too small', `At ${design.qr.sizeMm} mm each module is ${m} mm; engraved codes need at least 0.4 mm per module (about ${Math.ceil(0.45 * (QR_MODULES + 2 * margin))} mm for a profile link).`, m));
    else if (moduleMm < 0.45) findings.push(finding('qr-size', 'qr', 'warning', 'QR code is small', `At ${design.qr.sizeMm} mm each module is ${m} mm: readable close up, slow at arm's length. ${Math.ceil(0.5 * (QR_MODULES + 2 * margin))} mm or more scans instantly.`, m));
    else findings.push(finding('qr-size', 'qr', 'good', 'QR code size is comfortable', `At ${design.qr.sizeMm} mm each module is ${m} mm, comfortably above the 0.4 mm minimum for engraving.`, m));
  }
  // an engraved code is the engraving on the metal, whatever colours were typed
  const qrFg = engraved ? text : (design.qr?.foreground ?? text);
  const qrBg = engraved ? background : (design.qr?.background ?? background);
  const qrRatio = roundRatio(contrastRatio(qrFg, qrBg));
  if (qrRatio < 3) findings.push(finding('qr-contrast', 'qr', 'critical', 'QR code contrast too low', `QR modules ${qrFg} on ${qrBg} have only ${fmt(qrRatio)}; scanners need a strong difference (aim for 7:1 or more).`, qrRatio));
  else if (qrRatio < 5) findings.push(finding('qr-contrast', 'qr', 'warning', 'QR contrast is marginal', `QR modules ${qrFg} on ${qrBg} have ${fmt(qrRatio)}: expect slow scans in poor light.`, qrRatio));
  if (relativeLuminance(qrFg) > relativeLuminance(qrBg)) {
    findings.push(finding('qr-inverted', 'qr', 'info', 'Inverted QR code', `Light modules on a dark background (${qrFg} on ${qrBg}) are read by current iOS and Android cameras, but some older scanner apps need dark on light.`));
  }

  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  const penalty = findings.reduce((s, f) => s + (f.severity === 'critical' ? 25 : f.severity === 'warning' ? 10 : f.severity === 'info' ? 2 : 0), 0);
  const score = Math.max(0, Math.min(100, 100 - penalty));
  return {
    findings,
    score,
    facts: { templateName: t.name, background, text, accents, fonts, headingFont, detailFont, colorCount: n },
  };
}

/** The text's fit in one zone, as the filler lays it out (down to the template's own minimum size). */
function fitZone(value: string, zone: RealZone, family: string) {
  const style = { fontFamily: family, fontSize: ptToUnits(zone.sizePt), fontWeight: zone.weight };
  const minSize = Math.min(style.fontSize, zone.minSizeUnits ?? ptToUnits(MIN_READABLE_PT));
  return fitText(value, style, { maxWidth: zone.maxWidth, mode: zone.maxLines > 1 ? 'wrap' : 'shrink', maxLines: zone.maxLines, minSize });
}

/** Of the places a template draws a field, the one where the text is cut or shrunk most. */
function tightestZone(zones: RealZone[], value: string, headingFont: string, detailFont: string): RealZone | undefined {
  let worst: { zone: RealZone; score: number } | undefined;
  for (const zone of zones) {
    const res = fitZone(value, zone, zone.role === 'heading' ? headingFont : detailFont);
    const score = (res.truncated ? 1000 : 0) + ptToUnits(zone.sizePt) / Math.max(0.01, res.fontSize);
    if (!worst || score > worst.score) worst = { zone, score };
  }
  return worst?.zone;
}

const TOPIC_RULES: Array<[FindingTopic[], RegExp, string]> = [
  [['qr'], /\b(qr|scan\w*|barcode|code|camera)\b/i, 'the QR code'],
  [['finish', 'contrast'], /\b(metal|finish|titanium|mirror|brushed?|matte|anodi[sz]ed|engrav\w*|steel|shiny|reflect\w*)\b/i, 'the metal finish'],
  [['fonts'], /\b(fonts?|typefaces?|typography|serif|sans|letters?|bold|italic|weights?)\b/i, 'typography'],
  [['text', 'layout'], /\b(fit|fits|long|space|room|crowd\w*|clutter\w*|length|overflow\w*|too much|layout|template|arrange\w*|align\w*|size|small|big|large)\b/i, 'text and space'],
  [['colors'], /\b(colou?rs?|palette|hues?|tones?|gold|silver|accents?)\b/i, 'colour'],
  [['contrast', 'finish'], /\b(contrast|read\w*|legib\w*|visib\w*|see|dark|light|bright|stand out|pop)\b/i, 'readability'],
];

/** Topics the question asks about (empty: a general question). */
export function questionTopics(question: string): { topics: FindingTopic[]; labels: string[] } {
  const topics = new Set<FindingTopic>();
  const labels: string[] = [];
  for (const [ts, re, label] of TOPIC_RULES) {
    if (re.test(question)) {
      ts.forEach((x) => topics.add(x));
      labels.push(label);
    }
  }
  return { topics: [...topics], labels };
}

const VERDICT: Record<FindingSeverity, string> = {
  critical: 'needs fixing before you order',
  warning: 'works but can be improved',
  info: 'is fine',
  good: 'is in good shape',
};

/** A direct answer to the question, built from the findings on the topics it asks about. */
export function answerQuestion(question: string, findings: DesignFinding[], score: number, facts: Facts): string {
  const { topics, labels } = questionTopics(question);
  const parts: string[] = [];
  if (topics.length) {
    const relevant = findings.filter((f) => topics.includes(f.topic));
    const worst = relevant[0]?.severity ?? 'good';
    parts.push(`On ${labels.join(' and ')}: your design ${VERDICT[worst]}.`);
    for (const f of relevant.slice(0, 4)) parts.push(f.detail);
    if (relevant.length === 0) parts.push('I found nothing to measure there; add colours, fonts, details or QR settings to the design to check it.');
  } else {
    const problems = findings.filter((f) => f.severity === 'critical' || f.severity === 'warning');
    parts.push(`Overall the design scores ${score}/100 on the ${facts.templateName} layout.`);
    if (problems.length === 0) parts.push('I found no problems: contrast, fonts, colours, text length and the QR code all check out.');
    else {
      parts.push(`The ${problems.length === 1 ? 'main thing' : `${Math.min(3, problems.length)} main things`} to fix:`);
      for (const f of problems.slice(0, 3)) parts.push(f.detail);
    }
    const good = findings.filter((f) => f.severity === 'good').slice(0, 2);
    if (good.length) parts.push(`What already works: ${good.map((g) => g.title.toLowerCase()).join('; ')}.`);
  }
  return parts.join(' ');
}

/** The full built-in answer for POST /api/ai/design-feedback. */
export function generateDesignFeedback(input: DesignFeedbackInput): DesignFeedbackResponse {
  const { findings, score, facts } = analyseDesign(input.currentDesign);
  const answer = answerQuestion(input.userQuestion, findings, score, facts);
  return { feedback: composeFeedback(answer, findings, score), answer, score, findings, engine: 'built-in' };
}

/** The answer followed by the list of findings, as plain text. */
export function composeFeedback(answer: string, findings: DesignFinding[], score: number): string {
  const issues = findings.filter((f) => f.severity === 'critical' || f.severity === 'warning');
  const good = findings.filter((f) => f.severity === 'good');
  const lines = [answer, '', `Design score: ${score}/100.`];
  if (issues.length) lines.push('', 'To improve:', ...issues.map((f) => `- ${f.title}: ${f.detail}`));
  if (good.length) lines.push('', 'What works:', ...good.map((f) => `- ${f.title}: ${f.detail}`));
  return lines.join('\n');
}
