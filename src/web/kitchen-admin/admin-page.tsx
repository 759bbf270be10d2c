import type { ReactNode } from 'react';
import type { SessionUser } from '../../shared/auth.js';
import { PageLayout } from '../layout/page-layout.js';
import { RequireKitchenSession } from './admin-gates.js';
import { AdminNav } from './admin-nav.js';

/** The frame of every admin page: only for a signed-in kitchen user, with the numbered step navigation. */
export function AdminPage({ children }: { children: (user: SessionUser) => ReactNode }) {
  return (
    <PageLayout>
      <RequireKitchenSession>
        {(user) => (
          <>
            <AdminNav />
            {children(user)}
          </>
        )}
      </RequireKitchenSession>
    </PageLayout>
  );
}
