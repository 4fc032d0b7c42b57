import { useQuery } from '@tanstack/react-query';
import type { PrintCheck } from '#shared/schemas/print';
import { ApiError } from '#web/lib/api';

/** Query keys are the URLs the default query function GETs. */
export const printKeys = {
  check: (cardId: number) => `/api/admin/cards/${cardId}/print-check`,
  pdf: (cardId: number) => `/api/admin/cards/${cardId}/print.pdf`,
  svg: (cardId: number) => `/api/admin/cards/${cardId}/print.svg`,
};

/**
 * The print check of a card (issue 22): proofs at 300 DPI and the checks that gate "Approve". A
 * long review queue asks for many at once; when the server's render queue is full (503) the check
 * is asked again a little later instead of showing an error.
 */
export const usePrintCheck = (cardId: number) =>
  useQuery<PrintCheck>({
    queryKey: [printKeys.check(cardId)],
    retry: (count, err) => err instanceof ApiError && err.status === 503 && count < 20,
    retryDelay: (count) => Math.min(10_000, 1000 * 2 ** Math.min(count, 3)) + Math.random() * 500,
  });
