import { z } from 'zod';
import { PRINT_PROCESSES } from '#shared/catalogue';
import { binaryFile } from './common';

/**
 * Print files and the print check (issue 22, decision 22-01).
 * GET /api/admin/cards/{cardId}/print.pdf | print.svg | print-check (admin).
 */

export const PrintCardParams = z.strictObject({ cardId: z.coerce.number({ error: 'Card id must be a number' }).int().positive().max(2_147_483_647) });

export const PrintPdfGetResponse = binaryFile('application/pdf');
export const PrintSvgGetResponse = binaryFile('image/svg+xml');

export const PRINT_CHECK_IDS = ['qr-decode', 'qr-module', 'qr-quiet-zone', 'safe-area', 'image-resolution', 'elements', 'qr-contrast'] as const;
export const PRINT_CHECK_STATUSES = ['ok', 'warning', 'fail'] as const;
export type PrintCheckStatus = (typeof PRINT_CHECK_STATUSES)[number];

export const PrintCheckItem = z.strictObject({
  id: z.enum(PRINT_CHECK_IDS),
  label: z.string(),
  status: z.enum(PRINT_CHECK_STATUSES),
  /** the measured figure, e.g. "0.51 mm (minimum 0.50 mm)" */
  figure: z.string(),
  message: z.string(),
});
export type PrintCheckItem = z.infer<typeof PrintCheckItem>;

export const PrintProof = z.strictObject({
  side: z.enum(['front', 'back']),
  /** the print page rasterised at 300 DPI (PNG data URL) */
  image: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

export const PrintCheckGetResponse = z.strictObject({
  cardId: z.number().int(),
  cardType: z.string(),
  processes: z.array(z.enum(PRINT_PROCESSES)),
  /** the URL the card's QR code must open (its code URL) */
  expectedUrl: z.string().nullable(),
  /** what the QR code in the print raster decodes to */
  decodedText: z.string().nullable(),
  qrModuleMm: z.number().nullable(),
  minQrModuleMm: z.number(),
  quietZoneModules: z.number().nullable(),
  /** the QR code's contrast on the proof, light modules against dark (0-1; issue 35) */
  qrContrast: z.number().nullable().optional(),
  /** what the approved preview holds against what the print file draws, per side (issue 35) */
  elements: z.array(z.strictObject({ side: z.enum(['front', 'back']), preview: z.array(z.string()), print: z.array(z.string()), missing: z.array(z.string()) })).optional(),
  checks: z.array(PrintCheckItem),
  /** a check failed: approving needs an override reason */
  blocking: z.boolean(),
  proofs: z.array(PrintProof),
  warnings: z.array(z.string()),
});
export type PrintCheck = z.infer<typeof PrintCheckGetResponse>;

/** What staff write when they approve despite a failing print check (kept in the order history). */
export const PRINT_OVERRIDE_REASON_MAX = 500;
export const PRINT_OVERRIDE_REQUIRED = 'The print check failed: give a reason to approve anyway';
