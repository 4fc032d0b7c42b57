import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { usePageTitle } from '#web/lib/use-page-title';
import { AdminGate } from '#web/features/admin/components/admin-gate';
import { DesignReviewTab, type PrintCheckSlot } from '#web/features/designs/components/design-review-tab';
import { CustomersTab } from '#web/features/admin/components/customers-tab';
import { OrderDetailDialog } from '#web/features/admin/components/order-detail';
import { OrdersTab } from '#web/features/admin/components/orders-tab';
import { OutboxTab } from '#web/features/admin/components/outbox-tab';
import { BackupsTab } from '#web/features/backups/components/backups-tab';
import { AdminAuditLog } from '#web/features/audit/components/audit-log';
import { StaffTodo } from '#web/features/admin/components/staff-todo';
import { OverviewTab } from '#web/features/admin/components/overview-tab';
import { ReviewsModeration } from '#web/features/admin/components/reviews-moderation';
import { SettingsTab } from '#web/features/admin/components/settings-tab';
import { StudioSettingsForm } from '#web/features/settings/components/studio-settings-form';
import { ShopPagesSettingsForm } from '#web/features/settings/components/shop-pages-settings-form';
import { ProductionTab } from '#web/features/production/components/production-tab';
import { usePrintGate } from '#web/features/print/api';
import { PrintCheckPanel } from '#web/features/print/components/print-check-panel';
import { ConfirmIdentityDialog } from '#web/features/auth/components/confirm-identity-dialog';

/** The design review shows the print feature's check of each card (issue 22). */
const PRINT_CHECK: PrintCheckSlot = { useGate: usePrintGate, Panel: PrintCheckPanel };

const TABS = [
  { value: 'overview', label: 'Overview' },
  { value: 'orders', label: 'Orders' },
  { value: 'card-reviews', label: 'Card Reviews' },
  { value: 'production', label: 'Production' },
  { value: 'reviews', label: 'Reviews' },
  { value: 'customers', label: 'Customers' },
  { value: 'outbox', label: 'Outbox' },
  { value: 'backups', label: 'Backups' },
  { value: 'audit', label: 'Audit log' },
  { value: 'settings', label: 'Settings' },
] as const;
type Tab = (typeof TABS)[number]['value'];

function AdminDashboard() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = TABS.some((t) => t.value === requested) ? (requested as Tab) : 'overview';
  // ?order={id} (the job ticket's QR code) opens that order at once
  const [openOrder, setOpenOrder] = useState<number | null>(() => Number(params.get('order')) || null);
  return (
    <>
      <StaffTodo onView={setOpenOrder} />
      <Tabs
        value={tab}
        onValueChange={(v) => {
          const next = new URLSearchParams(params);
          if (v === 'overview') next.delete('tab');
          else next.set('tab', v);
          setParams(next, { replace: true });
        }}
      >
        <TabsList className="h-auto w-full justify-start sm:w-auto">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="overview">
          <OverviewTab onView={setOpenOrder} />
        </TabsContent>
        <TabsContent value="orders">
          <OrdersTab onView={setOpenOrder} />
        </TabsContent>
        <TabsContent value="card-reviews">
          <DesignReviewTab printCheck={PRINT_CHECK} />
        </TabsContent>
        <TabsContent value="production">
          <ProductionTab />
        </TabsContent>
        <TabsContent value="reviews">
          <ReviewsModeration />
        </TabsContent>
        <TabsContent value="customers">
          <CustomersTab onView={setOpenOrder} />
        </TabsContent>
        <TabsContent value="outbox">
          <OutboxTab />
        </TabsContent>
        <TabsContent value="backups">
          <BackupsTab />
        </TabsContent>
        <TabsContent value="audit">
          <AdminAuditLog />
        </TabsContent>
        <TabsContent value="settings">
          <SettingsTab
            studio={
              <>
                <StudioSettingsForm />
                <ShopPagesSettingsForm />
              </>
            }
          />
        </TabsContent>
      </Tabs>
      <OrderDetailDialog orderId={openOrder} onClose={() => setOpenOrder(null)} fullScreen />
      <ConfirmIdentityDialog />
    </>
  );
}

export default function AdminPage() {
  usePageTitle('Admin Dashboard', 'Orders, design reviews, customers and system status for staff.');
  return (
    <section className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="mb-6 text-3xl font-bold">Admin Dashboard</h1>
      <AdminGate>
        <AdminDashboard />
      </AdminGate>
    </section>
  );
}
