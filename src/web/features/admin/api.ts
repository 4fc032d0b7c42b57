import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { orderStatusLabel } from '#shared/catalogue';
import {
  ADMIN_POLL_MS,
  type AdminCustomerPage,
  type AdminOrderUpdateResponse,
  type AdminOrder,
  type AdminOrderDetail,
  type AdminOrderPage,
  type AdminStats,
  type DesignBatchApproved,
  type DesignReviewResult,
  type LinkCheckResult,
  type OutboxEmail,
  type OutboxPage,
  type PendingDesign,
  type ScanCheck,
  type TestingSummary,
} from '#shared/schemas/admin';
import type { AdminReview, AdminReviewFilter, UpdateReviewInput } from '#shared/schemas/reviews';
import { ApiError, api, apiRequest, errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { saveBlob } from '#web/lib/download';

/** Query keys are the URLs the default query function GETs. */
export const adminKeys = {
  stats: '/api/admin/stats',
  orders: (p: { q?: string; status?: string; page?: number; pageSize?: number }) => `/api/admin/orders${qs(p)}`,
  order: (id: number) => `/api/admin/orders/${id}`,
  pending: '/api/admin/business-cards/pending',
  scan: (id: number) => `/api/admin/business-cards/${id}/scan-check`,
  customers: (p: { q?: string; page?: number }) => `/api/admin/customers${qs(p)}`,
  testing: '/api/admin/testing-summary',
  outbox: (p: { status?: string; page?: number }) => `/api/admin/outbox${qs(p)}`,
  outboxEmail: (id: number) => `/api/admin/outbox/${id}`,
  reviews: (status: AdminReviewFilter) => `/api/admin/reviews?status=${status}`,
};

export function qs(params: Record<string, string | number | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '' && !(k === 'page' && v === 1)) sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : '';
}

const startsWith = (qc: QueryClient, prefix: string) => qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(prefix) });

/** A failed admin action: a destructive toast with the server's reason (decisions.md, "Staff"). */
export function failToast(title: string, err: unknown, fallback = 'Please try again.') {
  toast({ title, description: errorMessage(err, fallback), variant: 'destructive' });
}

export const useAdminStats = () => useQuery<AdminStats>({ queryKey: [adminKeys.stats], refetchInterval: ADMIN_POLL_MS.stats });

export const useAdminOrders = (p: { q: string; status: string; page: number; pageSize?: number }) =>
  useQuery<AdminOrderPage>({ queryKey: [adminKeys.orders(p)], placeholderData: keepPreviousData });

export const useOrderDetail = (id: number | null) => useQuery<AdminOrderDetail>({ queryKey: [adminKeys.order(id ?? 0)], enabled: id !== null });

export function useUpdateOrderStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: string }) => api.patch<z.infer<typeof AdminOrderUpdateResponse>>(`/api/admin/orders/${id}`, { status }),
    onSuccess: (order) => {
      qc.setQueryData([adminKeys.order(order.id)], order);
      void startsWith(qc, '/api/admin/orders');
      void startsWith(qc, adminKeys.stats);
      void startsWith(qc, '/api/admin/customers');
      void startsWith(qc, '/api/admin/outbox');
      toast({
        title: 'Order updated',
        description: order.changed ? `Order #${order.id} is now ${orderStatusLabel(order.status)}. The customer is being e-mailed.` : `Order #${order.id} already was ${orderStatusLabel(order.status)}.`,
      });
    },
    onError: (err) => failToast('Status update failed', err),
  });
}

export function useSaveNotes() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, notes }: { id: number; notes: string }) => api.put<AdminOrderDetail>(`/api/admin/orders/${id}/notes`, { notes }),
    onSuccess: (order) => {
      qc.setQueryData([adminKeys.order(order.id)], order);
      toast({ title: 'Notes saved', description: `Internal notes of order #${order.id} were saved.` });
    },
    onError: (err) => failToast('Could not save notes', err),
  });
}

export const usePendingDesigns = () => useQuery<PendingDesign[]>({ queryKey: [adminKeys.pending], refetchInterval: ADMIN_POLL_MS.pendingReviews });

/** Approves every waiting design of a team order at once (issue 21). */
export function useApproveBatch() {
  const qc = useQueryClient();
  return useMutation({
    // a failing print check needs an override reason (issue 22)
    mutationFn: ({ orderId, overrideReason }: { orderId: number; overrideReason?: string }) =>
      api.post<DesignBatchApproved>(`/api/admin/business-cards/batches/${orderId}/approve`, overrideReason ? { overrideReason } : undefined),
    onSuccess: (r) => {
      void startsWith(qc, adminKeys.pending);
      void startsWith(qc, '/api/admin/outbox');
      void startsWith(qc, adminKeys.order(r.orderId));
      toast({ title: `${r.approved} ${r.approved === 1 ? 'design' : 'designs'} approved`, description: 'The team admin is being e-mailed.' });
    },
    onError: (err) => {
      void startsWith(qc, adminKeys.pending);
      if (fieldErrors(err).overrideReason) return; // shown beside the button
      failToast('Batch approval failed', err);
    },
  });
}

export const useScanCheck = (id: number) => useQuery<ScanCheck>({ queryKey: [adminKeys.scan(id)] });

export function useReviewDesign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status, reviewNotes, overrideReason }: { id: number; status: 'approved' | 'rejected'; reviewNotes: string; overrideReason?: string }) =>
      api.put<DesignReviewResult>(`/api/admin/business-cards/${id}/review`, overrideReason ? { status, reviewNotes, overrideReason } : { status, reviewNotes }),
    onSuccess: (r) => {
      qc.setQueryData<PendingDesign[]>([adminKeys.pending], (list) => list?.filter((d) => d.id !== r.id));
      void startsWith(qc, adminKeys.pending);
      void startsWith(qc, '/api/admin/outbox');
      if (r.orderId) void startsWith(qc, adminKeys.order(r.orderId));
      toast({
        title: r.status === 'approved' ? 'Design approved' : 'Design rejected',
        description: 'The customer is being e-mailed.',
      });
    },
    onError: (err) => {
      void startsWith(qc, adminKeys.pending);
      failToast('Review failed', err);
    },
  });
}

export const useCustomers = (p: { q: string; page: number }) =>
  useQuery<AdminCustomerPage>({ queryKey: [adminKeys.customers(p)], placeholderData: keepPreviousData });

export const useTestingSummary = () => useQuery<TestingSummary>({ queryKey: [adminKeys.testing], refetchInterval: ADMIN_POLL_MS.testingSummary });

export function useRunLinkCheck() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<LinkCheckResult>('/api/admin/link-check'),
    onSuccess: (r) => {
      void startsWith(qc, adminKeys.testing);
      toast({ title: 'Link check finished', description: `${r.okPages} of ${r.totalPages} addresses answered (${r.successRate}%).` });
    },
    onError: (err) => failToast('Link check failed', err),
  });
}

export const useOutbox = (p: { status: string; page: number }) =>
  useQuery<OutboxPage>({ queryKey: [adminKeys.outbox(p)], placeholderData: keepPreviousData });
export const useOutboxEmail = (id: number | null) => useQuery<OutboxEmail>({ queryKey: [adminKeys.outboxEmail(id ?? 0)], enabled: id !== null });

export function useRetryEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<OutboxEmail>(`/api/admin/outbox/${id}/retry`),
    onSuccess: (e) => {
      void startsWith(qc, '/api/admin/outbox');
      void startsWith(qc, adminKeys.testing);
      toast({ title: 'E-mail queued again', description: `It will be sent to ${e.toAddress}.` });
    },
    onError: (err) => failToast('Could not queue the e-mail', err),
  });
}

export const useAdminReviews = (status: AdminReviewFilter) => useQuery<AdminReview[]>({ queryKey: [adminKeys.reviews(status)] });

export function useModerateReview() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: UpdateReviewInput }) => api.patch<AdminReview>(`/api/admin/reviews/${id}`, change),
    onSuccess: (r, { change }) => {
      void startsWith(qc, '/api/admin/reviews');
      void startsWith(qc, '/api/reviews');
      toast({
        title: change.hidden ? 'Review hidden' : change.verified ? 'Review verified' : 'Review updated',
        description: change.hidden ? `The review by ${r.customerName} is hidden from the site.` : `The review by ${r.customerName} is now published.`,
      });
    },
    onError: (err) => failToast('Could not update the review', err),
  });
}

/** business-card-{customer}-{orderId}.jpg (the customer's name made safe for a file name). */
export function cardFileName(order: Pick<AdminOrder, 'customerName' | 'id'>) {
  const customer =
    order.customerName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'customer';
  return `business-card-${customer}-${order.id}.jpg`;
}

/** Download card: the admin render of the order's card as JPEG, saved with the spec's file name. */
export function useDownloadCard() {
  return useMutation({
    mutationFn: async (order: AdminOrder) => {
      const logo = order.logoUrl && /^\/files\//.test(order.logoUrl) ? order.logoUrl : undefined;
      const res = await apiRequest('POST', '/api/admin/generate-card', {
        customerData: {
          fullName: order.customerName.slice(0, 100),
          jobTitle: order.position ?? undefined,
          email: order.email,
          phoneNumber: order.phone ?? undefined,
          address: order.address ?? undefined,
          companyName: order.companyName ?? undefined,
          logoUrl: logo,
        },
        templateId: order.templateId ?? undefined,
        cardType: order.cardType,
        format: 'jpeg',
        orderId: order.id,
      });
      const blob = await res.blob();
      if (!blob.size) throw new Error('The card file was empty');
      saveBlob(blob, cardFileName(order));
    },
    onSuccess: () => toast({ title: 'Card downloaded.' }),
    onError: (err) =>
      toast({
        title: 'Download failed',
        description: err instanceof ApiError && err.body?.message ? `Failed to download business card: ${err.body.message}` : 'Failed to download business card. Please try again.',
        variant: 'destructive',
      }),
  });
}

/** Export: the CSV of the orders the list shows (same search and status), saved as the server names it. */
export function useExportOrders() {
  return useMutation({
    mutationFn: async (p: { q: string; status: string }) => {
      const res = await apiRequest('GET', `/api/admin/orders.csv${qs(p)}`);
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'orders.csv';
      saveBlob(await res.blob(), name);
    },
    onSuccess: () => toast({ title: 'Export ready', description: 'The orders were saved as a CSV file.' }),
    onError: (err) => failToast('Export failed', err),
  });
}
