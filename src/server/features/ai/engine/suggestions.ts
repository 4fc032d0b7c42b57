/**
 * Design suggestions from the product's own rule base: industry x brand personality x role x
 * audience. Fonts come only from the bundled families, layouts map to the four templates,
 * the palette from the palette engine. Deterministic.
 */
import { BUNDLED_FONTS } from '#shared/fonts';
import type {
  BrandPersonality,
  DesignSuggestionsInput,
  DesignSuggestionsResponse,
  FontRecommendation,
  Industry,
  LayoutSuggestion,
  Mood,
  PaletteColor,
} from '#shared/schemas/ai';
import { AI_TEMPLATE_IDS } from '#shared/schemas/ai';
import { colorName, contrastRatio, roundRatio } from '#shared/ai/color';
import { finishSurface, legibilityOnFinish } from './finishes';
import { TEMPLATE_MODELS } from '#shared/ai/layouts';
import { buildPalette } from './palette';
import { withArticle } from '#shared/ai/words';
import {
  AUDIENCE_RULES,
  INDUSTRY_PROFILES,
  PERSONALITY_PROFILES,
  ROLE_PROFILES,
  ROLE_RULES,
  type AudienceKind,
  type FontFamily,
  type RoleKind,
} from './rules';

/** Default personality per industry when the user gives none. */
const INDUSTRY_DEFAULT_PERSONALITY: Record<Industry, BrandPersonality> = {
  Technology: 'Innovative',
  Healthcare: 'Trustworthy',
  Finance: 'Professional',
  'Real Estate': 'Friendly',
  Legal: 'Authoritative',
  Marketing: 'Creative',
  Consulting: 'Professional',
  Education: 'Friendly',
  Retail: 'Energetic',
  Manufacturing: 'Professional',
  Construction: 'Trustworthy',
  Other: 'Modern',
};

export function classifyRole(role: string): RoleKind {
  const r = role.toLowerCase();
  for (const [kind, re] of ROLE_RULES) if (re.test(r)) return kind;
  return 'general';
}

export function classifyAudience(audience: string | undefined): { kind: AudienceKind; advice: string } | null {
  if (!audience) return null;
  const a = audience.toLowerCase();
  for (const [kind, re, advice] of AUDIENCE_RULES) if (re.test(a)) return { kind, advice };
  return null;
}

const FONT_CHARACTER: Record<FontFamily, string> = {
  Inter: 'a neutral sans-serif drawn for screens and small sizes, with open shapes that stay clear when engraved',
  'Playfair Display': 'a high-contrast serif with a formal, editorial voice',
  Montserrat: 'a wide geometric sans-serif with confident capitals',
  'JetBrains Mono': 'a monospace with clear, distinct characters (0/O, 1/l)',
};

function fontScores(industry: Industry, personality: BrandPersonality, role: RoleKind, audience: AudienceKind | undefined): Record<FontFamily, number> {
  const s: Record<FontFamily, number> = { Inter: 0, 'Playfair Display': 0, Montserrat: 0, 'JetBrains Mono': 0 };
  for (const [f, v] of Object.entries(INDUSTRY_PROFILES[industry].fonts)) s[f as FontFamily] += v ?? 0;
  for (const [f, v] of Object.entries(PERSONALITY_PROFILES[personality].fonts)) s[f as FontFamily] += (v ?? 0) * 1.2;
  if (role === 'technical') s['JetBrains Mono'] += 1.5;
  if (role === 'legal') s['Playfair Display'] += 1;
  if (role === 'executive') s['Playfair Display'] += 0.5;
  if (role === 'creative') s.Montserrat += 1;
  if (role === 'trades' || role === 'sales') s.Montserrat += 0.5;
  if (role === 'medical' || role === 'educator') s.Inter += 0.5;
  if (audience === 'luxury') s['Playfair Display'] += 1;
  if (audience === 'startups') s['JetBrains Mono'] += 0.5;
  if (audience === 'patients' || audience === 'public-sector') s.Inter += 1;
  return s;
}

function recommendFonts(industry: Industry, personality: BrandPersonality, role: RoleKind, audience: AudienceKind | undefined): FontRecommendation[] {
  const scores = fontScores(industry, personality, role, audience);
  const ranked = (Object.keys(scores) as FontFamily[]).sort((a, b) => scores[b] - scores[a] || a.localeCompare(b));
  const weightsOf = (f: FontFamily) => BUNDLED_FONTS.find((b) => b.family === f)?.weights ?? [400];
  const pick = (f: FontFamily, use: string, weights: number[], reason: string): FontRecommendation => ({
    family: f,
    use,
    weights: weights.filter((w) => weightsOf(f).includes(w)),
    reason,
  });

  // heading: the best-scoring family; a monospace heading only for strongly technical briefs
  let heading = ranked[0];
  if (heading === 'JetBrains Mono' && !(role === 'technical' && scores['JetBrains Mono'] >= scores[ranked[1]] + 1)) heading = ranked[1];
  // body: small contact lines on metal need a sturdy sans (serif hairlines vanish in engraving)
  const body: FontFamily = scores.Inter >= scores.Montserrat || heading === 'Montserrat' ? 'Inter' : 'Montserrat';

  const out: FontRecommendation[] = [];
  const headingWeights = heading === 'Playfair Display' ? [600, 700] : heading === 'JetBrains Mono' ? [500] : [600, 700];
  const industryWord = industry === 'Other' ? 'your field' : industry.toLowerCase();
  out.push(
    pick(
      heading,
      'Name and headings',
      headingWeights,
      `${heading} is ${FONT_CHARACTER[heading]}; it fits ${withArticle(personality.toLowerCase())} brand in ${industryWord}` +
        (heading === 'Playfair Display'
          ? '. Set the name at 12 pt or more so the hairlines survive engraving.'
          : heading === 'JetBrains Mono'
            ? '. Use weight 500 for the name and keep it short: monospace names run wide.'
            : '. Use 600-700 for the name so it reads at arm\'s length.'),
    ),
  );
  if (body !== heading) {
    out.push(pick(body, 'Title and contact details', [400, 500], `${body} is ${FONT_CHARACTER[body]}; keep details at 7-8 pt in weight 400-500.`));
  } else {
    out.push(pick(body, 'Title and contact details', [400], `One family in two weights keeps the card calm: ${body} 400 for details at 7-8 pt.`));
  }
  const monoFit = scores['JetBrains Mono'] >= 2.5 && heading !== 'JetBrains Mono';
  if (monoFit) {
    out.push(pick('JetBrains Mono', 'E-mail, handle or URL line', [400], 'A monospace detail line for e-mail, handle or URL signals a technical brand and keeps characters unambiguous.'));
  }
  return out;
}

function recommendLayouts(industry: Industry, personality: BrandPersonality, role: RoleKind, audience: AudienceKind | undefined, companyName: string): LayoutSuggestion[] {
  const ind = INDUSTRY_PROFILES[industry];
  const pers = PERSONALITY_PROFILES[personality];
  const rp = ROLE_PROFILES[role];
  const longName = companyName.length > 22;
  const scored = AI_TEMPLATE_IDS.map((id) => {
    const reasons: string[] = [];
    let score = ind.templates[id];
    if (ind.templates[id] >= 3) reasons.push(`a strong match for ${industry === 'Other' ? 'most brands' : industry.toLowerCase()}`);
    const p = pers.templates[id] ?? 0;
    if (p) {
      score += p;
      reasons.push(`suits ${withArticle(personality.toLowerCase())} personality`);
    }
    const r = rp.templates[id] ?? 0;
    if (r) {
      score += r;
      reasons.push(`gives ${rp.layoutNote}`);
    }
    if (audience === 'luxury' && (id === 15 || id === 16)) {
      score += 1;
      reasons.push('understated enough for a premium audience');
    }
    if ((audience === 'students' || audience === 'startups') && TEMPLATE_MODELS[id].qrSide === 'front') {
      score += 1;
      reasons.push('puts the QR code on the front where people scan first');
    }
    if (longName && id === 18) {
      score += 0.5;
      reasons.push(`its wide back fits a long company name like "${companyName}"`);
    }
    if (longName && id === 17) score -= 0.5;
    return { id, score, reasons };
  }).sort((a, b) => b.score - a.score || a.id - b.id);

  const max = Math.max(1, scored[0].score);
  return scored.slice(0, 3).map(({ id, score, reasons }, i): LayoutSuggestion => {
    const t = TEMPLATE_MODELS[id];
    const why = reasons.length ? reasons.join('; ') : 'a safe, balanced alternative';
    return {
      templateId: id,
      templateName: t.name,
      title: `${i === 0 ? 'Best fit' : i === 1 ? 'Alternative' : 'Also consider'}: ${t.name}`,
      description: `${t.summary} Why: ${why}.`,
      fit: Math.max(0, Math.min(100, Math.round((score / max) * 100))),
    };
  });
}

function existingColorAdvice(colors: string[]): string[] {
  const out: string[] = [];
  for (const hex of colors.slice(0, 3)) {
    const onBlack = legibilityOnFinish(hex, finishSurface('standard', 'Matte'));
    const onTitanium = legibilityOnFinish(hex, finishSurface('luxury_titanium', 'Brushed'));
    const name = colorName(hex);
    if (onBlack.legible) {
      out.push(`Your existing ${name} ${hex} stays legible on black metal (${onBlack.contrast.toFixed(2)}:1), so it can carry text on Standard or Black Anodized cards.`);
    } else if (onTitanium.legible) {
      out.push(`Your existing ${name} ${hex} is too dark for black metal (${onBlack.contrast.toFixed(2)}:1) but works as text on brushed titanium (${onTitanium.contrast.toFixed(2)}:1) or as a print colour on Color Metal.`);
    } else {
      out.push(`Your existing ${name} ${hex} reaches only ${onBlack.contrast.toFixed(2)}:1 on black metal and ${onTitanium.contrast.toFixed(2)}:1 on titanium: keep it for a logo or a colour band on Color Metal and set text in white or black.`);
    }
  }
  return out;
}

function paletteAdvice(palette: PaletteColor[]): string {
  const accent = palette.find((c) => c.role === 'accent')!;
  const bg = palette.find((c) => c.role === 'background')!;
  const text = palette.find((c) => c.role === 'text')!;
  const ratio = roundRatio(contrastRatio(text.hex, bg.hex));
  return `Keep ${accent.name} ${accent.hex} for one element only (a rule, the QR frame or a monogram); text in ${text.name} ${text.hex} on ${bg.name} ${bg.hex} gives ${ratio.toFixed(2)}:1.`;
}

/** The built-in engine's answer for POST /api/ai/design-suggestions. */
export function generateDesignSuggestions(input: DesignSuggestionsInput): DesignSuggestionsResponse {
  const industry = input.industry;
  const personality = input.brandPersonality ?? INDUSTRY_DEFAULT_PERSONALITY[industry];
  const role = classifyRole(input.role);
  const audience = classifyAudience(input.targetAudience);
  const existing = input.existingColors ?? [];
  const mood: Mood = PERSONALITY_PROFILES[personality].mood;

  const ind = INDUSTRY_PROFILES[industry];
  const baseColor = existing[0] ?? '#000000';
  const { colors } = buildPalette({ baseColor, mood, industry, accentColor: existing[1] });

  const fontRecommendations = recommendFonts(industry, personality, role, audience?.kind);
  const layoutSuggestions = recommendLayouts(industry, personality, role, audience?.kind, input.companyName);

  const industryTips = [...ind.tips];
  if (industry !== 'Other') industryTips.push(`Colour convention: ${ind.convention}; the suggested palette uses ${withArticle(ind.accentName)} accent accordingly.`);

  const rp = ROLE_PROFILES[role];
  const brandingAdvice: string[] = [];
  brandingAdvice.push(rp.advice.replace('{role}', input.role));
  brandingAdvice.push(`${input.brandPersonality ? 'For' : 'With no personality chosen we assumed'} ${withArticle(personality.toLowerCase())} brand${input.brandPersonality ? '' : ` (typical for ${industry === 'Other' ? 'general business' : industry.toLowerCase()})`}: ${PERSONALITY_PROFILES[personality].advice}`);
  if (audience) brandingAdvice.push(audience.advice);
  else if (input.targetAudience) brandingAdvice.push(`Write the card for "${input.targetAudience}": keep only the details they need to contact you, and put the rest on your digital profile.`);
  const name = input.companyName;
  if (name.length > 22) {
    brandingAdvice.push(`"${name}" is long for a 3.5-inch card: use the logo or a short form on the front and the full name on the back.`);
  } else if (name.length <= 12) {
    brandingAdvice.push(`"${name}" is short enough to set as a wordmark in capitals with generous letter-spacing.`);
  } else {
    brandingAdvice.push(`Set "${name}" in the heading font at a consistent size on card, profile and website so the name itself becomes the mark.`);
  }
  brandingAdvice.push(...existingColorAdvice(existing));
  brandingAdvice.push(paletteAdvice(colors));

  return {
    colorPalette: colors,
    fontRecommendations,
    layoutSuggestions,
    industryTips,
    brandingAdvice,
    engine: 'built-in',
  };
}
