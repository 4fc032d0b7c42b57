import { useQuery } from '@tanstack/react-query';
import { getAdminCardsByCardIdPrintCheck, getAdminCardsByCardIdPrintPdf, getAdminCardsByCardIdPrintSvg } from '#shared/contracts/print';
import { ApiError } from '#web/lib/api';
import { endpointHref, endpointQuery } from '#web/lib/endpoint';

/** The addresses of a card's print files (downloads). */
export const printKeys = {
  pdf: (cardId: number) => endpointHref(getAdminCardsByCardIdPrintPdf, { params: { cardId } }),
  svg: (cardId: number) => endpointHref(getAdminCardsByCardIdPrintSvg, { params: { cardId } }),
};

/**
 * The print check of a card (issue 22): proofs at 300 DPI and the checks that gate "Approve". A
 * long review queue asks for many at once; when the server's render queue is full (503) the check
 * is asked again a little later instead of showing an error.
 */
export const usePrintCheck = (cardId: number) =>
  useQuery({
    ...endpointQuery(getAdminCardsByCardIdPrintCheck, { params: { cardId } }),
    retry: (count, err) => err instanceof ApiError && err.status === 503 && count < 20,
    retryDelay: (count) => Math.min(10_000, 1000 * 2 ** Math.min(count, 3)) + Math.random() * 500,
  });

/** Whether a card's print check blocks "Approve" (and whether it is still being made): the design review's gate. */
export function usePrintGate(cardId: number) {
  const q = usePrintCheck(cardId);
  return { blocking: !!q.data?.blocking, isLoading: q.isLoading };
}
