import type { ReactNode } from 'react';
import { AdminOnlyGate } from '#web/components/admin-only-gate';

/** The store pages are for staff: others get a clear message (the server refuses their calls too). */
export function StaffGate({ children }: { children: ReactNode }) {
  return (
    <AdminOnlyGate
      refusedTestId="staff-refused"
      notAdminMessage="The online-store pages are for staff. Ask an administrator to give your account the admin role."
      signedOutMessage="The online-store pages are for staff. Please sign in with an admin account."
    >
      {children}
    </AdminOnlyGate>
  );
}
