import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DesignForEdit, DesignResubmitInput, DesignResubmitResult } from '#shared/schemas/templates';
import { api } from '#web/lib/api';
import { EMPTY_DESIGN, type DesignValues } from './design-parts';

/** The card id in `/design?card={id}` ("Edit and resubmit"), or null. */
export function editCardId(raw: string | null): number | null {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

/** The owner's design that needs changes, as the designer reopens it. */
export function useDesignForEdit(cardId: number | null) {
  return useQuery<DesignForEdit>({ queryKey: [`/api/cards/${cardId}/design`], enabled: cardId !== null, retry: false });
}

export function useResubmitDesign(cardId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DesignResubmitInput) => api.post<DesignResubmitResult>(`/api/cards/${cardId}/resubmit`, body),
    onSuccess: () => qc.invalidateQueries(),
  });
}

/** The stored design's fields back into the designer's form. */
export function designFromStored(cp: Record<string, string>): DesignValues {
  const out: DesignValues = { ...EMPTY_DESIGN };
  for (const k of Object.keys(EMPTY_DESIGN) as Array<keyof DesignValues>) if (typeof cp[k] === 'string') out[k] = cp[k];
  return out;
}
