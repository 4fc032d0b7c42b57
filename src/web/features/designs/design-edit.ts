import { EMPTY_DESIGN, type DesignValues } from './design-parts';

/** The card id in `/design?card={id}` ("Edit and resubmit"), or null. */
export function editCardId(raw: string | null): number | null {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

/** The stored design's fields back into the designer's form. */
export function designFromStored(cp: Record<string, string>): DesignValues {
  const out: DesignValues = { ...EMPTY_DESIGN };
  for (const k of Object.keys(EMPTY_DESIGN) as Array<keyof DesignValues>) if (typeof cp[k] === 'string') out[k] = cp[k];
  return out;
}
