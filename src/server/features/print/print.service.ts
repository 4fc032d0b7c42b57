import { CARD_TYPE_PROCESSES, type CardTypeId } from '#shared/catalogue';
import { CARD_TEXT_FIELDS, type CardData } from '#shared/templates/fields';
import type { CardLook } from '#shared/templates/look';
import { publicProfileUrl } from '#shared/routes';
import type { PrintCheck } from '#shared/schemas/print';
import { elementsCheck, imageResolutionCheck, missingElements, qrContrastCheck, qrDecodeCheck, qrModuleCheck, quietZoneCheck, safeAreaCheck } from './art/checks';
import type { AppContext } from '#server/context';
import { cardById } from '#server/features/designs/reads';
import { cardProfile } from '#server/features/profile/reads';
import { badRequest, notFound } from '#server/http/http-errors';
import { transliterate } from '#server/http/download-name';
import { asBuffer, runTask } from '#server/infra/worker-pool';
import { findVersion, getTemplate, logoDataUri } from '#server/features/templates/public-api';
import { orderBatchQrText } from '#server/features/engagement/public-api';
import { loadPublicProfile } from '#server/features/profile/public-api';
import type { PrintTaskInput, ProofMeasurements } from './print.task';
import type { SheetLayout } from './pdf';

/**
 * Print files and the print check of one card (issue 22, decision 22-01). The card is filled as
 * its previews were (the template version it was designed on, its fields and look, its logo and
 * its code URL), then the worker pool writes the files (print.task.ts).
 */

interface Loaded {
  input: PrintTaskInput;
  expectedUrl: string | null;
  fileBase: string;
  cardType: string;
}

function slug(s: string): string {
  return (
    transliterate(s)
      .replace(/[^\w\s-]/g, '')
      .trim()
      .toLowerCase()
      .replace(/[\s_]+/g, '-')
      .replace(/-+/g, '-')
      .slice(0, 40) || 'card'
  );
}

async function load(ctx: AppContext, cardId: number, baseUrl: string): Promise<Loaded> {
  const card = await cardById(ctx.db, cardId);
  if (!card) throw notFound('Card not found');
  const profile = await cardProfile(ctx.db, card);
  const cp = (card.customerProfile ?? {}) as Record<string, unknown>;
  const data: CardData = {};
  for (const f of CARD_TEXT_FIELDS) if (typeof cp[f] === 'string') data[f] = cp[f] as string;
  const look = ((card.customizations ?? {}) as { look?: CardLook }).look;
  data.look = { ...(look && typeof look === 'object' ? look : {}), cardType: card.cardType as CardTypeId };
  // the template version the card was designed on, when the template changed since
  const template = await getTemplate(ctx, { id: card.templateId });
  let front = template.frontSvg ?? '';
  let back = template.backSvg ?? '';
  const v = typeof cp.templateVersion === 'number' ? cp.templateVersion : null;
  if (v && v !== template.version) {
    const old = await findVersion(ctx, template.id, v);
    if (old?.frontSvg && old.backSvg) {
      front = old.frontSvg;
      back = old.backSvg;
    }
  }
  if (!front || !back) throw notFound('The card template has no SVG files');
  // what the previews carry (issue 35): the batch's short link for a card of an order (the Share tab
  // and the NFC tag use it; a team card stores its member's own code), else the profile page
  const batchUrl = !card.qrCodeUrl && card.orderId ? await orderBatchQrText(ctx, card.orderId, baseUrl) : null;
  const expectedUrl = card.qrCodeUrl ?? batchUrl ?? (profile ? publicProfileUrl(baseUrl, profile.id) : null);
  // the logo the previews show: the design's own, else the profile's as its page shows it (a team's
  // brand applied: a team card shows the company logo), else the stored profile's
  const shown = !cp.logoUrl && profile ? (await loadPublicProfile(ctx, profile.id))?.profile.logoUrl : null;
  const logoUrl = (typeof cp.logoUrl === 'string' && cp.logoUrl) || shown || profile?.logoUrl || null;
  const logoHref = await logoDataUri(ctx, logoUrl);
  const name = typeof cp.fullName === 'string' ? cp.fullName : '';
  return {
    input: { cardType: card.cardType, front, back, data, qrUrl: expectedUrl, logoHref, previewLogo: !!logoUrl, title: `Card ${card.id}${name ? ` (${name})` : ''}: print file` },
    expectedUrl,
    fileBase: `card-${card.id}-${slug(name)}`,
    cardType: card.cardType,
  };
}

/** The print PDF (both sides) and the SVG of one card, made on the worker pool. 404 for an unknown card. */
export async function renderPrintFiles(ctx: AppContext, cardId: number, baseUrl = ctx.publicUrl()): Promise<{ pdf: Buffer; svg: string; fileBase: string; warnings: string[] }> {
  const l = await load(ctx, cardId, baseUrl);
  const out = await runTask<{ pdf: Uint8Array; svg: string; warnings: string[] }>('render', 'printFiles', l.input);
  return { pdf: asBuffer(out.pdf), svg: out.svg, fileBase: l.fileBase, warnings: out.warnings };
}

/** The print check the design review shows (and approving enforces). */
export async function printCheck(ctx: AppContext, cardId: number, baseUrl = ctx.publicUrl()): Promise<PrintCheck> {
  const l = await load(ctx, cardId, baseUrl);
  const m = await runTask<ProofMeasurements>('render', 'printProof', l.input);
  const min = ctx.config.PRINT_MIN_QR_MODULE_MM;
  const checks = [
    qrDecodeCheck({ expectedUrl: l.expectedUrl, decoded: m.decodedText, hasQr: m.hasQr }),
    qrModuleCheck(m.qrModuleMm, min),
    quietZoneCheck(m.decodedText ? m.quietZoneModules : null),
    safeAreaCheck(m.texts),
    imageResolutionCheck(m.images),
    elementsCheck(m.elements),
    qrContrastCheck(m.decodedText ? m.qrContrast : null),
  ];
  return {
    cardId,
    cardType: l.cardType,
    processes: [...(CARD_TYPE_PROCESSES[l.cardType as CardTypeId] ?? CARD_TYPE_PROCESSES.standard)],
    expectedUrl: l.expectedUrl,
    decodedText: m.decodedText,
    qrModuleMm: m.qrModuleMm,
    minQrModuleMm: min,
    quietZoneModules: m.quietZoneModules,
    qrContrast: m.qrContrast,
    elements: m.elements.map((e) => ({ ...e, missing: missingElements(e) })),
    checks,
    blocking: checks.some((c) => c.status === 'fail'),
    proofs: m.proofs.map((p) => ({ side: p.side, image: `data:image/png;base64,${asBuffer(p.png).toString('base64')}`, width: p.width, height: p.height })),
    warnings: m.warnings,
  };
}

/** Most cards one imposition sheet task takes (a card is 20-130 ms of worker time). */
const PRINT_SHEET_MAX_CARDS = 60;

/**
 * An imposition PDF for a printing jig (issue 22): the cards in a rows x columns grid, fronts on one
 * page and backs (columns mirrored) on the next, as many sheets as needed, with registration marks.
 */
export async function renderPrintSheet(ctx: AppContext, opts: SheetLayout & { cardIds: number[] }, baseUrl = ctx.publicUrl()): Promise<Buffer> {
  const { cardIds, ...layout } = opts;
  if (!cardIds.length) throw badRequest('Choose at least one card', { cardIds: 'Choose at least one card' });
  if (cardIds.length > PRINT_SHEET_MAX_CARDS) throw badRequest(`At most ${PRINT_SHEET_MAX_CARDS} cards per sheet file`, { cardIds: `At most ${PRINT_SHEET_MAX_CARDS} cards per sheet file` });
  if (!Number.isInteger(layout.rows) || !Number.isInteger(layout.columns) || layout.rows < 1 || layout.columns < 1 || layout.rows * layout.columns > 100) {
    throw badRequest('The sheet must have 1 to 100 places', { rows: 'Rows and columns must be whole numbers with at most 100 places' });
  }
  if (!(layout.gapMm >= 0 && layout.gapMm <= 50)) throw badRequest('The gap must be 0 to 50 mm', { gapMm: 'The gap must be 0 to 50 mm' });
  const cards: PrintTaskInput[] = [];
  for (const id of cardIds) cards.push((await load(ctx, id, baseUrl)).input);
  const out = await runTask<Uint8Array>('render', 'printSheet', { cards, layout, title: `Print sheet: ${cardIds.length} cards` }, { timeoutMs: Math.max(ctx.config.WORKER_TASK_TIMEOUT_MS, cardIds.length * 500) });
  return asBuffer(out);
}
