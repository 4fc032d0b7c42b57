import { z } from 'zod';
import { CARD_TYPE_IDS, DEFAULT_CARD_TYPE, DEFAULT_TEMPLATE_ID } from '#shared/catalogue';
import { TEMPLATE_FOLDERS, TEMPLATE_SIDES } from '#shared/templates/builtin';
import { binaryFile, EmptyResponse, isoDateTime, normalizeLinkUrl, textDocument } from './common';
import { SVG_FILE_MAX_BYTES } from '#shared/templates/messages';
import { CARD_FONT_FAMILIES, LOGO_POSITIONS, LOGO_SCALE_MAX, LOGO_SCALE_MIN, allowedFont } from '#shared/templates/look';

/**
 * Contracts of the template calls: GET /api/templates, GET /api/svg-templates, thumbnails and
 * previews, POST /api/template-customize, POST /api/generate-card, POST /api/admin/generate-card,
 * POST /api/svg-files. Messages are the spec's texts. The designs sent for review have their own
 * contracts (`./designs`), built from the card fields below.
 */

export { SVG_FILE_MAX_BYTES };

// the card fields below (text, links, the logo file) are shared with the designs' contracts (./designs)
export const text = (max: number, label: string) =>
  z
    .string()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), `${label} must be a single line of text`)
    .transform((s) => s.trim());

export const optText = (max: number, label: string) =>
  z
    .union([text(max, label), z.null()])
    .optional()
    .transform((v) => v || undefined);

const LINK_MESSAGE = 'Please enter a valid URL starting with http:// or https://';

/**
 * The designer's website and LinkedIn fields (issue 33): the profile links' normalisation
 * ({@link normalizeLinkUrl}), so `http:evil.com`, `javascript:` and `data:` are refused and what is
 * stored is what a browser opens. A bare domain (`example.com/about`, no scheme) gets `https://`.
 */
function normalizeDesignerLink(raw: string): string | null {
  const s = raw.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(s);
  const bare = !scheme || scheme[1].includes('.');
  return normalizeLinkUrl(bare && !s.startsWith('/') ? `https://${s}` : s);
}

export const optUrl = z
  .union([z.string().max(2048, 'URL is too long'), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (!v || !v.trim()) return undefined;
    const href = normalizeDesignerLink(v);
    if (href === null) {
      ctx.issues.push({ code: 'custom', message: LINK_MESSAGE, input: v });
      return z.NEVER;
    }
    return href;
  });

/** A stored file of this site (/files/...): the only logo a card render will read. */
export const fileUrl = z
  .union([z.string().regex(/^\/files\/[a-z0-9][a-z0-9/_.-]{0,200}$/, 'Logo must be a file uploaded to this site').refine((s) => !s.includes('..')), z.literal(''), z.null()])
  .optional()
  .transform((v) => v || undefined);

/** Profile fields a card is filled with (every one optional: previews fill what they get). */
export const TemplateCustomizeBody = z.strictObject({
  fullName: optText(100, 'Name'),
  jobTitle: optText(100, 'Job title'),
  companyName: optText(120, 'Company'),
  email: optText(254, 'Email'),
  phoneNumber: optText(40, 'Phone'),
  address: optText(300, 'Address'),
  website: optUrl,
  linkedinUrl: optUrl,
  logoUrl: fileUrl,
});

export const templateIdField = z
  .number({ error: 'Please choose a template' })
  .int('Please choose a template')
  .positive('Please choose a template')
  .max(2_147_483_647, 'Please choose a template');

/** The customer's choices for the card's look (issue 20): accent, font, logo box; the card type gives the metal. */
export const CardLookInput = z.strictObject({
  accent: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Choose a colour like #1e3a8a').nullable().optional(),
  font: z
    .string()
    .max(80)
    .refine((f) => allowedFont(f) !== null, `Choose one of our card fonts: ${CARD_FONT_FAMILIES.join(', ')}`)
    .nullable()
    .optional(),
  logoPosition: z.enum(LOGO_POSITIONS, { error: `Logo position must be one of ${LOGO_POSITIONS.join(', ')}` }).nullable().optional(),
  logoScale: z
    .number({ error: 'Logo size must be a number' })
    .min(LOGO_SCALE_MIN, `Logo size must be at least ${LOGO_SCALE_MIN}`)
    .max(LOGO_SCALE_MAX, `Logo size must be at most ${LOGO_SCALE_MAX}`)
    .nullable()
    .optional(),
});
export type CardLookInput = z.infer<typeof CardLookInput>;

export const TemplateSideParams = z.strictObject({
  id: z.coerce.number({ error: 'Template not found' }).int('Template not found').positive('Template not found').max(2_147_483_647, 'Template not found'),
  side: z.enum(TEMPLATE_SIDES, { error: 'Side must be front or back' }),
});

export const TemplateVersionQuery = z.object({ v: z.string().max(40).optional(), t: z.string().max(40).optional() });

export const CardGenerateBody = z.strictObject({
  templateId: templateIdField.optional(),
  format: z.enum(['svg', 'jpeg', 'png'], { error: 'Format must be svg or jpeg' }).default('jpeg'),
});

export const AdminCardGenerateBody = z.strictObject({
  customerData: z.strictObject({
    fullName: text(100, 'Name').pipe(z.string().min(1, 'Name is required')),
    jobTitle: optText(120, 'Job title'),
    email: optText(254, 'Email'),
    phoneNumber: optText(40, 'Phone'),
    address: optText(300, 'Address'),
    companyName: optText(120, 'Company'),
    website: optUrl,
    linkedinUrl: optUrl,
    logoUrl: fileUrl,
  }),
  templateId: templateIdField.default(DEFAULT_TEMPLATE_ID),
  cardType: z.enum(CARD_TYPE_IDS, { error: 'Please choose a card type' }).default(DEFAULT_CARD_TYPE),
  format: z.enum(['jpeg'], { error: 'Format must be jpeg' }).default('jpeg'),
  orderId: z.number().int().positive().max(2_147_483_647).optional(),
});

export const SvgFilesSaveBody = z.strictObject({
  templateId: templateIdField,
  folder: z.enum(TEMPLATE_FOLDERS, { error: 'Unknown template folder' }),
  updates: z
    .strictObject({
      front: z.string().max(4 * SVG_FILE_MAX_BYTES, 'SVG file is too large').optional(),
      back: z.string().max(4 * SVG_FILE_MAX_BYTES, 'SVG file is too large').optional(),
    })
    .refine((u) => u.front !== undefined || u.back !== undefined, 'Choose a front or back SVG file to save'),
  notes: z.string().max(2000, 'Notes must be at most 2000 characters').optional(),
});
export type SvgFilesInput = z.input<typeof SvgFilesSaveBody>;

export const SvgFileGetParams = z.strictObject({
  folder: z.string().max(40),
  file: z.string().max(40),
});

export const FontFileGetParams = z.strictObject({ file: z.string().max(80) });

/** GET /api/templates item (home and gallery). */
export const TemplateSummary = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  isActive: z.boolean(),
  folder: z.string(),
  version: z.number().int(),
  updatedAt: isoDateTime,
  invertThumbnail: z.boolean(),
  thumbnailFront: z.string(),
  thumbnailBack: z.string(),
});
export type TemplateSummary = z.infer<typeof TemplateSummary>;
export const TemplateListResponse = z.array(TemplateSummary);

/** GET /api/svg-templates item (template manager, design flow): the SVG text of both sides. */
export const SvgTemplate = TemplateSummary.extend({
  front: z.string().nullable(),
  back: z.string().nullable(),
  frontUrl: z.string(),
  backUrl: z.string(),
  /** admins only */
  notes: z.string().nullable().optional(),
});
export type SvgTemplate = z.infer<typeof SvgTemplate>;
export const SvgTemplateListResponse = z.array(SvgTemplate);

export const GeneratedSide = z.strictObject({
  mimeType: z.enum(['image/svg+xml', 'image/jpeg', 'image/png']),
  /** the file, base64 */
  data: z.base64(),
  filename: z.string(),
});
export type GeneratedSide = z.infer<typeof GeneratedSide>;

/** POST /api/generate-card: both sides of the caller's card. */
export const CardGenerateResponse = z.strictObject({ front: GeneratedSide, back: GeneratedSide });
export type GeneratedCard = z.infer<typeof CardGenerateResponse>;

/** POST /api/admin/generate-card: a JPEG proof sheet of both sides (attachment). */
export const AdminCardGenerateResponse = binaryFile('image/jpeg (attachment)');

/** POST /api/svg-files: the template as saved. */
export const SvgFilesSaveResponse = z.strictObject({
  message: z.string(),
  template: z.strictObject({ id: z.number().int(), folder: z.string(), version: z.number().int(), updatedAt: isoDateTime, notes: z.string().nullable() }),
});

/** Thumbnails (JPEG, rendered on the server), 304 on a matching ETag. */
export const TemplateThumbnailResponse = { 200: binaryFile('image/jpeg'), 304: EmptyResponse };
/** Previews and filled-in sides: SVG (sandboxed). */
export const TemplateSvgResponse = textDocument('image/svg+xml');
/** /templates/svg/{folder}/{file}: the template file, 304 on a matching ETag. */
export const SvgFileGetResponse = { 200: textDocument('image/svg+xml'), 304: EmptyResponse };
/** /fonts/{file}: a bundled TTF font. */
export const FontFileGetResponse = binaryFile('font/ttf');

// ---- the SVG template manager's versions (issue 20): preview before saving, history, rollback ----

/** POST /api/svg-files/preview: the same body as the save (without notes); nothing is written. */
export const SvgFilesPreviewBody = SvgFilesSaveBody.omit({ notes: true });
export const SvgFilesPreviewResponse = z.strictObject({
  /** both sides as they would go live, filled with the sample person (PNG data: URLs) */
  front: z.string(),
  back: z.string(),
  /** the fields each side keeps */
  fields: z.array(z.string()),
});

export const TemplateVersionsParams = z.strictObject({
  templateId: z.coerce.number({ error: 'Template not found' }).int('Template not found').positive('Template not found').max(2_147_483_647, 'Template not found'),
});

export const TemplateVersionInfo = z.strictObject({
  version: z.number().int(),
  notes: z.string().nullable(),
  createdAt: isoDateTime,
  /** the staff member's username (null for the first, built-in version) */
  createdBy: z.string().nullable(),
  current: z.boolean(),
  fields: z.array(z.string()),
});
export type TemplateVersionInfo = z.infer<typeof TemplateVersionInfo>;
export const TemplateVersionsResponse = z.strictObject({ templateId: z.number().int(), versions: z.array(TemplateVersionInfo) });

export const TemplateRollbackBody = z.strictObject({
  version: z.number({ error: 'Choose a version' }).int('Choose a version').positive('Choose a version'),
});
