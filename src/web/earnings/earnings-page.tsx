import { RequireOwnKitchen } from '../kitchen-admin/admin-gates.js';
import { AdminPage } from '../kitchen-admin/admin-page.js';
import { KitchenEarnings } from './earnings.js';

/** /Earnings: the signed-in cook's paid orders (a cook without a kitchen is sent to register one). */
export function EarningsPage() {
  return (
    <AdminPage>
      {(user) => (
        <RequireOwnKitchen user={user}>
          {(kitchen) => <KitchenEarnings kitchen={kitchen} />}
        </RequireOwnKitchen>
      )}
    </AdminPage>
  );
}
