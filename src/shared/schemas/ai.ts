import { z } from 'zod';
import { CARD_STYLES, CARD_TYPE_IDS } from '#shared/catalogue';
import { isHexColor, normalizeHex } from '#shared/ai/color';
import { singleLine, multiLine } from './common';

/** The spec's option lists (section 9). */
export const INDUSTRIES = [
  'Technology',
  'Healthcare',
  'Finance',
  'Real Estate',
  'Legal',
  'Marketing',
  'Consulting',
  'Education',
  'Retail',
  'Manufacturing',
  'Construction',
  'Other',
] as const;
export type Industry = (typeof INDUSTRIES)[number];

export const BRAND_PERSONALITIES = [
  'Professional',
  'Creative',
  'Modern',
  'Traditional',
  'Friendly',
  'Authoritative',
  'Innovative',
  'Trustworthy',
  'Energetic',
  'Elegant',
] as const;
export type BrandPersonality = (typeof BRAND_PERSONALITIES)[number];

export const MOODS = ['Professional', 'Creative', 'Energetic', 'Calm', 'Bold', 'Elegant', 'Modern', 'Traditional', 'Trustworthy', 'Innovative'] as const;
export type Mood = (typeof MOODS)[number];

export const COLOR_ROLES = ['primary', 'secondary', 'accent', 'background', 'surface', 'text'] as const;
export type ColorRole = (typeof COLOR_ROLES)[number];

export const QR_STYLES = ['standard', 'rounded', 'circular', 'dot', 'square'] as const;

/** The card's built-in templates by id (decisions.md: 15 Minimal, 16 Classic, 17 Simple, 18 Modern). */
export const AI_TEMPLATE_IDS = [15, 16, 17, 18] as const;
export type AiTemplateId = (typeof AI_TEMPLATE_IDS)[number];

export const HEX_MESSAGE = 'Use a hex colour like #1A2B3C';
export const hexColor = z
  .string(HEX_MESSAGE)
  .max(9, HEX_MESSAGE)
  .refine((s) => isHexColor(s), HEX_MESSAGE)
  .transform((s) => normalizeHex(s));

const requiredLine = (max: number, message: string) =>
  z
    .string(message)
    .max(max, `${message.replace(/ is required$/, '')} must be at most ${max} characters`)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'Please use a single line of text')
    .transform((s) => s.trim())
    .refine((s) => s.length > 0, message);

const choice = <T extends readonly [string, ...string[]]>(values: T, required: string, invalid: string) =>
  z
    .string(required)
    .refine((s) => s.trim() !== '', required)
    .refine((s) => s.trim() === '' || (values as readonly string[]).includes(s.trim()), invalid)
    .transform((s) => s.trim() as T[number]);

/** Optional free text: empty strings count as "not given". */
const optionalLine = (max: number, label: string) =>
  singleLine(max, label)
    .optional()
    .transform((s) => (s ? s : undefined));

/**
 * existingColors: hex codes as a list or one comma/space separated string ("#0A2540, #FFD700").
 * At most 6 colours.
 */
export const existingColorsField = z
  .union([z.string(HEX_MESSAGE).max(200, 'At most 6 colours'), z.array(z.string(HEX_MESSAGE).max(20, HEX_MESSAGE)).max(6, 'At most 6 colours')], HEX_MESSAGE)
  .optional()
  .transform((v, ctx) => {
    const tokens = (Array.isArray(v) ? v : (v ?? '').split(/[\s,;]+/)).map((s) => s.trim()).filter(Boolean);
    if (tokens.length > 6) {
      ctx.addIssue({ code: 'custom', message: 'At most 6 colours' });
      return z.NEVER;
    }
    const bad = tokens.find((t) => !isHexColor(t));
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: `${HEX_MESSAGE} (not "${bad.slice(0, 20)}")` });
      return z.NEVER;
    }
    return [...new Set(tokens.map(normalizeHex))];
  });

export const AiSuggestionCreateBody = z.strictObject({
  companyName: requiredLine(100, 'Company name is required'),
  industry: choice(INDUSTRIES, 'Industry is required', 'Please choose an industry from the list'),
  role: requiredLine(100, 'Role is required'),
  targetAudience: optionalLine(200, 'Target audience'),
  brandPersonality: z
    .string('Please choose a brand personality from the list')
    .optional()
    .refine((s) => !s || (BRAND_PERSONALITIES as readonly string[]).includes(s), 'Please choose a brand personality from the list')
    .transform((s) => (s ? (s as BrandPersonality) : undefined)),
  existingColors: existingColorsField,
});
export type DesignSuggestionsRequest = z.input<typeof AiSuggestionCreateBody>;
export type DesignSuggestionsInput = z.output<typeof AiSuggestionCreateBody>;

export const AiPaletteCreateBody = z.strictObject({
  baseColor: z
    .union([z.literal(''), hexColor], HEX_MESSAGE)
    .optional()
    .transform((v) => (v ? v : '#000000')),
  mood: choice(MOODS, 'Mood is required', 'Please choose a mood from the list'),
  industry: choice(INDUSTRIES, 'Industry is required', 'Please choose an industry from the list'),
});
export type ColorPaletteRequest = z.input<typeof AiPaletteCreateBody>;
export type ColorPaletteInput = z.output<typeof AiPaletteCreateBody>;

export const TEMPLATE_CHOICE_MESSAGE = 'Choose one of the templates';
/**
 * A template by id (any of the shop's templates: the server checks it exists and reads its real
 * layout, issue 37) or by a built-in's name.
 */
const templateField = z
  .union([z.number(), z.string()], TEMPLATE_CHOICE_MESSAGE)
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return 17;
    const byName: Record<string, AiTemplateId> = { minimal: 15, classic: 16, simple: 17, modern: 18 };
    const n = typeof v === 'number' ? v : /^\d+$/.test(v.trim()) ? Number(v.trim()) : byName[v.trim().toLowerCase()];
    if (n === undefined || !Number.isInteger(n) || n < 1 || n > 100_000) {
      ctx.addIssue({ code: 'custom', message: TEMPLATE_CHOICE_MESSAGE });
      return z.NEVER;
    }
    return n;
  });

export const currentDesignSchema = z.strictObject(
  {
    template: templateField,
    cardType: z.enum(CARD_TYPE_IDS, 'Choose a card type from the catalogue').optional(),
    cardStyle: z.enum(CARD_STYLES, 'Choose a card style: Matte, Brushed, Mirror or Custom').optional(),
    colors: z
      .strictObject({
        background: hexColor,
        text: hexColor,
        accents: z.array(hexColor).max(6, 'At most 6 accent colours').optional().default([]),
      })
      .optional(),
    fonts: z
      .array(singleLine(60, 'Font name').refine((s) => s.trim().length > 0, 'Font name must not be empty'), 'Fonts must be a list of font names')
      .max(6, 'At most 6 fonts')
      .optional()
      .default([]),
    businessInfo: z
      .strictObject({
        fullName: optionalLine(120, 'Full name'),
        jobTitle: optionalLine(120, 'Job title'),
        companyName: optionalLine(120, 'Company name'),
        email: optionalLine(254, 'Email'),
        phone: optionalLine(40, 'Phone'),
        address: optionalLine(200, 'Address'),
        website: optionalLine(200, 'Website'),
        tagline: optionalLine(160, 'Tagline'),
      })
      .optional()
      .prefault({}),
    qr: z
      .strictObject({
        margin: z.number('Quiet zone must be a number of modules').int('Quiet zone must be a whole number of modules').min(0).max(10).optional(),
        style: z.enum(QR_STYLES, 'Choose a QR style from the list').optional(),
        sizeMm: z.number('QR size must be a number of millimetres').min(5, 'QR size must be at least 5 mm').max(50, 'QR size must be at most 50 mm').optional(),
        foreground: hexColor.optional(),
        background: hexColor.optional(),
      })
      .optional(),
  },
  'Current design is required',
);
export type CurrentDesign = z.output<typeof currentDesignSchema>;

export const AiFeedbackCreateBody = z.strictObject({
  currentDesign: currentDesignSchema,
  userQuestion: multiLine(1000, 'Question')
    .optional()
    .refine((s) => !!s && s.trim().length > 0, 'Please enter a question')
    .transform((s) => s as string),
});
export type DesignFeedbackRequest = z.input<typeof AiFeedbackCreateBody>;
export type DesignFeedbackInput = z.output<typeof AiFeedbackCreateBody>;

// ---- answers ---------------------------------------------------------------------------------

const hex = z.string().regex(/^#[0-9A-Fa-f]{6}$/).describe('hex colour #RRGGBB');

export const PaletteColor = z.strictObject({
  hex,
  name: z.string(),
  role: z.enum(COLOR_ROLES),
  /** how the colour is meant to be used */
  usage: z.string(),
  oklch: z.strictObject({ l: z.number(), c: z.number(), h: z.number() }),
  /** WCAG contrast ratio against pure white and pure black, 2 decimals (rounded down) */
  contrastOnWhite: z.number(),
  contrastOnBlack: z.number(),
  /** the better of black or white for text placed on this colour */
  textOn: z.enum(['#000000', '#FFFFFF']),
});
export type PaletteColor = z.infer<typeof PaletteColor>;

/** Legibility of the palette's text colour on one metal finish (card type x style). */
export const FinishCheck = z.strictObject({
  cardType: z.string(),
  cardTypeLabel: z.string(),
  style: z.string(),
  /** representative surface colour (its darkest and lightest look under light) */
  surface: hex,
  surfaceRange: z.tuple([hex, hex]),
  /** the palette colour recommended for text on this finish */
  textColor: hex,
  textRole: z.enum(COLOR_ROLES),
  /** worst-case contrast over the finish's range */
  contrast: z.number(),
  level: z.enum(['AAA', 'AA', 'AA Large', 'Fail']),
  legible: z.boolean(),
  note: z.string(),
});
export type FinishCheck = z.infer<typeof FinishCheck>;

export const AiPaletteCreateResponse = z.strictObject({
  colors: z.array(PaletteColor),
  harmony: z.string(),
  description: z.string(),
  baseColor: hex,
  mood: z.enum(MOODS),
  industry: z.enum(INDUSTRIES),
  finishes: z.array(FinishCheck),
});
export type ColorPaletteResponse = z.infer<typeof AiPaletteCreateResponse>;

export const FontRecommendation = z.strictObject({
  family: z.enum(['Inter', 'Playfair Display', 'Montserrat', 'JetBrains Mono']),
  use: z.string(),
  weights: z.array(z.number().int()),
  reason: z.string(),
});
export type FontRecommendation = z.infer<typeof FontRecommendation>;

export const LayoutSuggestion = z.strictObject({
  templateId: z.union(AI_TEMPLATE_IDS.map((id) => z.literal(id)) as unknown as [z.ZodLiteral<15>, z.ZodLiteral<16>, z.ZodLiteral<17>, z.ZodLiteral<18>]),
  templateName: z.string(),
  title: z.string(),
  description: z.string(),
  fit: z.number(),
});
export type LayoutSuggestion = z.infer<typeof LayoutSuggestion>;

export const AI_ENGINES = ['built-in', 'model'] as const;

export const AiSuggestionCreateResponse = z.strictObject({
  colorPalette: z.array(PaletteColor),
  fontRecommendations: z.array(FontRecommendation),
  layoutSuggestions: z.array(LayoutSuggestion),
  industryTips: z.array(z.string()),
  brandingAdvice: z.array(z.string()),
  engine: z.enum(AI_ENGINES),
});
export type DesignSuggestionsResponse = z.infer<typeof AiSuggestionCreateResponse>;

export const FINDING_SEVERITIES = ['critical', 'warning', 'good', 'info'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];
export const FINDING_TOPICS = ['contrast', 'fonts', 'colors', 'text', 'qr', 'finish', 'layout'] as const;
export type FindingTopic = (typeof FINDING_TOPICS)[number];

export const DesignFinding = z.strictObject({
  id: z.string(),
  topic: z.enum(FINDING_TOPICS),
  severity: z.enum(FINDING_SEVERITIES),
  title: z.string(),
  detail: z.string(),
  /** the measured figure behind the finding (a ratio, a count, a percentage) when there is one */
  value: z.number().optional(),
});
export type DesignFinding = z.infer<typeof DesignFinding>;

export const AiFeedbackCreateResponse = z.strictObject({
  /** the answer to the user's question followed by the main findings, as readable text */
  feedback: z.string(),
  answer: z.string(),
  score: z.number(),
  findings: z.array(DesignFinding),
  engine: z.enum(AI_ENGINES),
});
export type DesignFeedbackResponse = z.infer<typeof AiFeedbackCreateResponse>;

// ---- "Apply to my card" and the current design (issue 37, decision 37-07) -------------------

/**
 * POST /api/ai/apply: what a suggestion may change on the card. The card keeps `cardType` unless
 * `switchTo` names another metal AND `confirmPriceChange` is true (the customer confirmed the new
 * price); a colour the resulting metal cannot make legibly is not applied and is listed instead.
 */
export const AiApplyBody = z.strictObject({
  cardType: z.enum(CARD_TYPE_IDS, 'Choose a card type from the catalogue'),
  accent: hexColor.optional(),
  font: singleLine(60, 'Font name').optional(),
  switchTo: z.enum(CARD_TYPE_IDS, 'Choose a card type from the catalogue').optional(),
  confirmPriceChange: z.boolean('confirmPriceChange must be true or false').optional(),
});
export type AiApplyRequest = z.input<typeof AiApplyBody>;

export const AiPriceChange = z.strictObject({
  from: z.enum(CARD_TYPE_IDS),
  to: z.enum(CARD_TYPE_IDS),
  fromLabel: z.string(),
  toLabel: z.string(),
  differenceCents: z.number().int(),
  text: z.string(),
});

export const AiApplyResponse = z.strictObject({
  cardType: z.enum(CARD_TYPE_IDS),
  /** #rrggbb applied to the name, or null (none asked, or it does not fit the metal) */
  accent: z.string().nullable(),
  font: z.string().nullable(),
  /** the designer with exactly this applied (the card type always named) */
  designPath: z.string(),
  /** what was asked for and not applied, with the reason */
  notApplied: z.array(z.strictObject({ field: z.enum(['accent', 'font']), value: z.string(), reason: z.string() })),
  /** the confirmed change of product and price, or null when the metal stays */
  priceChange: AiPriceChange.nullable(),
});
export type AiApplyResult = z.infer<typeof AiApplyResponse>;

export const CURRENT_DESIGN_FIELDS = ['fullName', 'jobTitle', 'companyName', 'email', 'phone', 'website', 'address'] as const;

/** One text field of a template as the template draws it (card units: 1050 x 600, 300 a inch). */
export const LayoutField = z.strictObject({
  field: z.string(),
  side: z.enum(['front', 'back']),
  x: z.number(),
  y: z.number(),
  maxWidth: z.number(),
  sizePt: z.number(),
  maxLines: z.number().int(),
});

/** GET /api/ai/current-design: the signed-in user's latest card design (else the profile's choices). */
export const AiCurrentDesignResponse = z.strictObject({
  /** design: the latest submitted card design; profile: the designer's saved choices; none: defaults */
  source: z.enum(['design', 'profile', 'none']),
  cardId: z.number().int().nullable(),
  orderId: z.number().int().nullable(),
  templateId: z.number().int(),
  templateName: z.string(),
  cardType: z.enum(CARD_TYPE_IDS),
  cardTypeLabel: z.string(),
  accent: z.string().nullable(),
  font: z.string().nullable(),
  businessInfo: z.strictObject(Object.fromEntries(CURRENT_DESIGN_FIELDS.map((k) => [k, z.string()])) as Record<(typeof CURRENT_DESIGN_FIELDS)[number], z.ZodString>),
  /** the template's real text fields and QR code (from its SVG) */
  layout: z.strictObject({ fields: z.array(LayoutField), qrSide: z.enum(['front', 'back']).nullable(), qrBorder: z.boolean() }),
});
export type AiCurrentDesign = z.infer<typeof AiCurrentDesignResponse>;

export const AiBackgroundRemoveResponse = z.strictObject({
  processedImageUrl: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  engine: z.enum(['built-in', 'photoroom']),
});
export type RemoveBackgroundResponse = z.infer<typeof AiBackgroundRemoveResponse>;
