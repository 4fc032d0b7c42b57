import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { orderStatusLabel } from '#shared/catalogue';
import { ADMIN_POLL_MS } from '#shared/admin/poll';
import { CUSTOMER_EMAIL_STATUSES } from '#shared/orders/status-machine';
import type { AdminOrder, AdminOrderPaymentCreateBody } from '#shared/schemas/admin';
import type { AdminReviewFilter, UpdateReviewInput } from '#shared/schemas/reviews';
import {
  getAdminCustomers,
  getAdminOrders,
  getAdminOrdersById,
  getAdminOrdersCsv,
  getAdminOutbox,
  getAdminOutboxById,
  getAdminStats,
  getAdminTestingSummary,
  getAdminTodo,
  patchAdminOrdersById,
  postAdminLinkCheck,
  postAdminOutboxByIdRetry,
  postAdminTodoSeen,
  putAdminOrdersByIdNotes,
  postAdminOrdersByIdPayments,
} from '#shared/contracts/admin';
import { getAdminReviews, getReviews, patchAdminReviewsById } from '#shared/contracts/reviews';
import { postAdminOrdersByIdPickupReady, postAdminOrdersByIdShipment } from '#shared/contracts/production';
import { postAdminGenerateCard } from '#shared/contracts/templates';
import { ApiError, errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { saveBlob } from '#web/lib/download';
import type { EndpointBody, EndpointQuery } from '#shared/contracts/endpoint';
import { callEndpoint, endpointKey, endpointPrefix, endpointQuery, fetchEndpoint } from '#web/lib/endpoint';

/** A list's query: empty filters and the first page left out (one key per list view). */
function listQuery<T extends Record<string, string | number | undefined>>(params: T): Partial<T> {
  return Object.fromEntries(Object.entries(params).filter(([k, v]) => v !== undefined && v !== '' && !(k === 'page' && v === 1))) as Partial<T>;
}

/** An order status as the lists and the detail carry it (a string: the server checks it). */
type OrderStatus = EndpointBody<typeof patchAdminOrdersById>['status'];

const orderKey = (id: number) => endpointKey(getAdminOrdersById, { params: { id } });
const STATS = endpointPrefix(getAdminStats);
const ORDERS = endpointPrefix(getAdminOrders);
const CUSTOMERS = endpointPrefix(getAdminCustomers);
const OUTBOX = endpointPrefix(getAdminOutbox);
const TESTING = endpointPrefix(getAdminTestingSummary);

const startsWith = (qc: QueryClient, prefix: string) => qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(prefix) });

/** A failed admin action: a destructive toast with the server's reason (decisions.md, "Staff"). */
export function failToast(title: string, err: unknown, fallback = 'Please try again.') {
  toast({ title, description: errorMessage(err, fallback), variant: 'destructive' });
}

export const useAdminStats = () => useQuery({ ...endpointQuery(getAdminStats), refetchInterval: ADMIN_POLL_MS.stats });

export const useAdminOrders = (p: { q: string; status: string; page: number; pageSize?: number }) =>
  useQuery({ ...endpointQuery(getAdminOrders, { query: listQuery(p) as EndpointQuery<typeof getAdminOrders> }), placeholderData: keepPreviousData });

export const useOrderDetail = (id: number | null) => useQuery({ ...endpointQuery(getAdminOrdersById, { params: { id: id ?? 0 } }), enabled: id !== null });

export function useUpdateOrderStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status, overrideReason }: { id: number; status: string; overrideReason?: string }) =>
      callEndpoint(patchAdminOrdersById, { params: { id }, body: overrideReason ? { status: status as OrderStatus, overrideReason } : { status: status as OrderStatus } }),
    onSuccess: (order) => {
      qc.setQueryData(orderKey(order.id), order);
      void startsWith(qc, ORDERS);
      void startsWith(qc, STATS);
      void startsWith(qc, CUSTOMERS);
      void startsWith(qc, OUTBOX);
      toast({
        title: 'Order updated',
        description: order.changed
          ? `Order #${order.id} is now ${orderStatusLabel(order.status)}.${CUSTOMER_EMAIL_STATUSES.includes(order.status) ? ' The customer is being e-mailed.' : ''}`
          : `Order #${order.id} already was ${orderStatusLabel(order.status)}.`,
      });
    },
    onError: (err) => failToast('Status update failed', err),
  });
}

/** Ship (carrier and tracking number) or ready for pickup, from the order detail: the production floor's calls (issue 35). */
export function useFulfilOrder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (p: { id: number; ship?: EndpointBody<typeof postAdminOrdersByIdShipment> }) => {
      await (p.ship
        ? callEndpoint(postAdminOrdersByIdShipment, { params: { id: p.id }, body: p.ship })
        : callEndpoint(postAdminOrdersByIdPickupReady, { params: { id: p.id }, body: {} }));
      return callEndpoint(getAdminOrdersById, { params: { id: p.id } });
    },
    onSuccess: (order) => {
      qc.setQueryData(orderKey(order.id), order);
      void startsWith(qc, ORDERS);
      void startsWith(qc, OUTBOX);
      toast({ title: 'Order updated', description: `Order #${order.id} is now ${orderStatusLabel(order.status)}. The customer is being e-mailed.` });
    },
    onError: (err) => failToast('Status update failed', err),
  });
}

/** Staff record a payment or a refund on an order (issue 35); the answer is the order with its payment state. */
export function useRecordPayment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: z.output<typeof AdminOrderPaymentCreateBody> }) => callEndpoint(postAdminOrdersByIdPayments, { params: { id }, body }),
    onSuccess: (order, { body }) => {
      qc.setQueryData(orderKey(order.id), order);
      void startsWith(qc, STATS);
      toast({ title: body.kind === 'refund' ? 'Refund recorded' : 'Payment recorded', description: `Order #${order.id} is now ${order.payment.status.replace('_', ' ')}.` });
    },
    onError: (err) => failToast('Payment not recorded', err),
  });
}

export function useSaveNotes() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, notes }: { id: number; notes: string }) => callEndpoint(putAdminOrdersByIdNotes, { params: { id }, body: { notes } }),
    onSuccess: (order) => {
      qc.setQueryData(orderKey(order.id), order);
      toast({ title: 'Notes saved', description: `Internal notes of order #${order.id} were saved.` });
    },
    onError: (err) => failToast('Could not save notes', err),
  });
}

export const useCustomers = (p: { q: string; page: number }) =>
  useQuery({ ...endpointQuery(getAdminCustomers, { query: listQuery(p) as EndpointQuery<typeof getAdminCustomers> }), placeholderData: keepPreviousData });

export const useTestingSummary = () => useQuery({ ...endpointQuery(getAdminTestingSummary), refetchInterval: ADMIN_POLL_MS.testingSummary });

export function useRunLinkCheck() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(postAdminLinkCheck),
    onSuccess: (r) => {
      void startsWith(qc, TESTING);
      toast({ title: 'Link check finished', description: `${r.okPages} of ${r.totalPages} addresses answered (${r.successRate}%).` });
    },
    onError: (err) => failToast('Link check failed', err),
  });
}

export const useOutbox = (p: { q: string; order: string; status: string; page: number }) =>
  useQuery({ ...endpointQuery(getAdminOutbox, { query: listQuery(p) as EndpointQuery<typeof getAdminOutbox> }), placeholderData: keepPreviousData });
export const useOutboxEmail = (id: number | null) => useQuery({ ...endpointQuery(getAdminOutboxById, { params: { id: id ?? 0 } }), enabled: id !== null });

export function useRetryEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(postAdminOutboxByIdRetry, { params: { id } }),
    onSuccess: (e) => {
      void startsWith(qc, OUTBOX);
      void startsWith(qc, TESTING);
      toast({ title: 'E-mail queued again', description: `It will be sent to ${e.toAddress}.` });
    },
    onError: (err) => failToast('Could not queue the e-mail', err),
  });
}

/** The first admin's to-do: orders placed while no admin existed (issue 37, decision 37-02). */
export const useStaffTodo = () => useQuery(endpointQuery(getAdminTodo));

export function useMarkTodoSeen() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (orderIds: number[]) => callEndpoint(postAdminTodoSeen, { body: { orderIds } }),
    onSuccess: (r) => {
      void startsWith(qc, endpointPrefix(getAdminTodo));
      toast({ title: 'Marked as seen', description: r.seen === 1 ? 'The order left the to-do.' : `${r.seen} orders left the to-do.` });
    },
    onError: (err) => failToast('Could not mark the orders seen', err),
  });
}

export const useAdminReviews = (status: AdminReviewFilter) => useQuery(endpointQuery(getAdminReviews, { query: { status } }));

export function useModerateReview() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: UpdateReviewInput }) => callEndpoint(patchAdminReviewsById, { params: { id }, body: change }),
    onSuccess: (r, { change }) => {
      void startsWith(qc, endpointPrefix(getAdminReviews));
      void startsWith(qc, endpointPrefix(getReviews));
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
      const res = await fetchEndpoint(postAdminGenerateCard, {
        body: {
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
        cardType: order.cardType as EndpointBody<typeof postAdminGenerateCard>['cardType'],
        format: 'jpeg',
        orderId: order.id,
        },
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
      const res = await fetchEndpoint(getAdminOrdersCsv, { query: listQuery(p) as EndpointQuery<typeof getAdminOrdersCsv> });
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'orders.csv';
      saveBlob(await res.blob(), name);
    },
    onSuccess: () => toast({ title: 'Export ready', description: 'The orders were saved as a CSV file.' }),
    onError: (err) => failToast('Export failed', err),
  });
}
