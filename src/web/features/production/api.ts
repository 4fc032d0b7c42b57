import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProductionExportBody, ProductionShipmentBody } from '#shared/schemas/production';
import {
  getAdminOrdersByIdJobTicketPdf,
  getAdminOrdersByIdNfcCsv,
  getAdminOrdersByIdPrintFilesZip,
  getAdminProduction,
  postAdminOrdersByIdPickupReady,
  postAdminOrdersByIdShipment,
  postAdminProductionExport,
} from '#shared/contracts/production';
import { getAdminOrders, getAdminOutbox, getAdminStats, patchAdminOrdersById } from '#shared/contracts/admin';
import { errorMessage } from '#web/lib/api';
import { saveBlob, saveResponse } from '#web/lib/download';
import type { EndpointBody, EndpointQuery } from '#shared/contracts/endpoint';
import { callEndpoint, endpointHref, endpointPrefix, endpointQuery, fetchEndpoint } from '#web/lib/endpoint';
import { toast } from '#web/lib/toast';

/** The order's files as links. The NFC CSV is not one of them: see `useDownloadNfcCsv`. */
export const productionFiles = {
  jobTicket: (id: number) => endpointHref(getAdminOrdersByIdJobTicketPdf, { params: { id } }),
  printFiles: (id: number) => endpointHref(getAdminOrdersByIdPrintFilesZip, { params: { id } }),
};

export const useProductionQueue = (p: { status: string; cardType: string }) => useQuery(endpointQuery(getAdminProduction, { query: p as EndpointQuery<typeof getAdminProduction> }));

/** Query keys a status step makes stale: the queue, the order lists and details, the stats and the outbox. */
const STALE_AFTER_A_STEP = [getAdminProduction, getAdminOrders, getAdminStats, getAdminOutbox].map(endpointPrefix);

/** After a status step: the queue, the order lists and the order's own detail are read again. */
function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ predicate: (q) => STALE_AFTER_A_STEP.some((prefix) => String(q.queryKey[0]).startsWith(prefix)) });
}

const failed = (title: string) => (err: unknown) => toast({ title, description: errorMessage(err), variant: 'destructive' });

export function useSetProductionStatus() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: string }) => callEndpoint(patchAdminOrdersById, { params: { id }, body: { status: status as EndpointBody<typeof patchAdminOrdersById>['status'] } }),
    onSuccess: (o) => {
      void refresh();
      toast({ title: 'Order updated', description: `Order #${o.id} moved on. The customer is being e-mailed.` });
    },
    onError: failed('Status update failed'),
  });
}

export function useMarkShipped() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ProductionShipmentBody }) => callEndpoint(postAdminOrdersByIdShipment, { params: { id }, body }),
    onSuccess: (o) => {
      void refresh();
      toast({ title: 'Marked shipped', description: `Order #${o.id}: ${o.fulfilment?.carrierLabel} ${o.fulfilment?.trackingNumber}. The customer is being e-mailed.` });
    },
  });
}

export function useMarkPickupReady() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(postAdminOrdersByIdPickupReady, { params: { id }, body: {} }),
    onSuccess: (o) => {
      void refresh();
      toast({ title: 'Ready for pickup', description: `Order #${o.id}: pickup code ${o.fulfilment?.pickupCode}. The customer is being e-mailed.` });
    },
    onError: failed('Could not mark ready for pickup'),
  });
}

/** The chosen orders' print files and job tickets in one ZIP (the server streams it). */
export function useExportZip() {
  return useMutation({
    mutationFn: async (body: ProductionExportBody) => {
      const res = await fetchEndpoint(postAdminProductionExport, { body });
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'production.zip';
      saveBlob(await res.blob(), name);
      return name;
    },
    onSuccess: (name) => toast({ title: 'Download ready', description: name }),
    onError: failed('Download failed'),
  });
}

/**
 * An order's NFC CSV. Fetched, not linked: it is one of the exports the recent-auth check guards, so
 * after the 15-minute window "Confirm it is you" opens and the download goes on once confirmed.
 */
export function useDownloadNfcCsv() {
  return useMutation({
    mutationFn: async (id: number) => saveResponse(await fetchEndpoint(getAdminOrdersByIdNfcCsv, { params: { id } }), `nfc-order-${id}.csv`),
    onSuccess: (name) => toast({ title: 'Download ready', description: name }),
    onError: failed('Download failed'),
  });
}
