import type { ReactNode } from 'react';
import { AdminOnlyGate } from '#web/components/admin-only-gate';

/** Shows its children to admins only; everyone else gets a clear message (the server refuses them too). */
export function AdminGate({ children }: { children: ReactNode }) {
  return (
    <AdminOnlyGate
      refusedTestId="admin-refused"
      notAdminMessage="Your account does not have access to the admin dashboard. If you work here, ask an administrator to give your account the admin role."
      signedOutMessage="The admin dashboard is for staff. Please sign in with an admin account."
    >
      {children}
    </AdminOnlyGate>
  );
}
