import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProductionExportBody, ProductionOrder, ProductionQueueResponse, ProductionShipmentBody } from '#shared/schemas/production';
import { api, apiRequest, errorMessage } from '#web/lib/api';
import { saveBlob } from '#web/lib/download';
import { toast } from '#web/lib/toast';

export const productionKeys = {
  queue: (p: { status: string; cardType: string }) => {
    const sp = new URLSearchParams(Object.entries(p).filter(([, v]) => v));
    const s = sp.toString();
    return `/api/admin/production${s ? `?${s}` : ''}`;
  },
};

export const productionFiles = {
  jobTicket: (id: number) => `/api/admin/orders/${id}/job-ticket.pdf`,
  nfcCsv: (id: number) => `/api/admin/orders/${id}/nfc.csv`,
  printFiles: (id: number) => `/api/admin/orders/${id}/print-files.zip`,
};

export const useProductionQueue = (p: { status: string; cardType: string }) => useQuery<ProductionQueueResponse>({ queryKey: [productionKeys.queue(p)] });

/** After a status step: the queue, the order lists and the order's own detail are read again. */
function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ predicate: (q) => /^\/api\/admin\/(production|orders|stats|outbox)/.test(String(q.queryKey[0])) });
}

const failed = (title: string) => (err: unknown) => toast({ title, description: errorMessage(err), variant: 'destructive' });

export function useSetProductionStatus() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: string }) => api.patch<{ id: number; status: string }>(`/api/admin/orders/${id}`, { status }),
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
    mutationFn: ({ id, body }: { id: number; body: ProductionShipmentBody }) => api.post<ProductionOrder>(`/api/admin/orders/${id}/shipment`, body),
    onSuccess: (o) => {
      void refresh();
      toast({ title: 'Marked shipped', description: `Order #${o.id}: ${o.fulfilment?.carrierLabel} ${o.fulfilment?.trackingNumber}. The customer is being e-mailed.` });
    },
  });
}

export function useMarkPickupReady() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => api.post<ProductionOrder>(`/api/admin/orders/${id}/pickup-ready`, {}),
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
      const res = await apiRequest('POST', '/api/admin/production/export', body);
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'production.zip';
      saveBlob(await res.blob(), name);
      return name;
    },
    onSuccess: (name) => toast({ title: 'Download ready', description: name }),
    onError: failed('Download failed'),
  });
}
