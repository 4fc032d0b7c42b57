import { z } from 'zod';
import type { AiApplyBody, AiApplyResult } from '#shared/schemas/ai';
import { colourFit, priceChange } from '#shared/ai/metal-fit';
import { allowedFont } from '#shared/templates/look';
import { designWithLookPath } from '#shared/routes';
import { HttpError } from '#server/http/http-errors';

/**
 * POST /api/ai/apply (issue 37, decision 37-07): what an AI suggestion may change on the card.
 * The metal (product and price) changes only when the request names the new one in `switchTo`
 * and carries `confirmPriceChange: true`, which the page sends only from its confirm dialog that
 * names the price change; otherwise 409 and nothing changes. A colour the resulting metal cannot
 * make legibly is never applied: it is listed in `notApplied` with the reason.
 */
export function planApply(input: z.output<typeof AiApplyBody>): AiApplyResult {
  const target = input.switchTo ?? input.cardType;
  const change = priceChange(input.cardType, target);
  if (change && input.confirmPriceChange !== true) {
    const message = `Switching ${change.text}. Please confirm the new price before switching.`;
    throw new HttpError(409, message, { confirmPriceChange: message });
  }
  const notApplied: AiApplyResult['notApplied'] = [];
  let accent: string | null = null;
  if (input.accent) {
    const fit = colourFit(input.accent, target);
    if (fit.fits) accent = input.accent.toLowerCase();
    else notApplied.push({ field: 'accent', value: input.accent, reason: fit.reason });
  }
  let font: string | null = null;
  if (input.font) {
    font = allowedFont(input.font);
    if (!font) notApplied.push({ field: 'font', value: input.font, reason: 'Cards are set only in the bundled fonts.' });
  }
  return {
    cardType: target,
    accent,
    font,
    designPath: designWithLookPath({ cardType: target, accent: accent ?? undefined, font: font ?? undefined }),
    notApplied,
    priceChange: change,
  };
}
