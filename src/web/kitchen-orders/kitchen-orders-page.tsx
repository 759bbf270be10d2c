import { RequireOwnKitchen } from '../kitchen-admin/admin-gates.js';
import { AdminPage } from '../kitchen-admin/admin-page.js';
import { KitchenOrders } from './kitchen-orders.js';

export function KitchenOrdersPage() {
  return (
    <AdminPage>
      {(user) => (
        <RequireOwnKitchen user={user}>{(kitchen) => <KitchenOrders kitchen={kitchen} />}</RequireOwnKitchen>
      )}
    </AdminPage>
  );
}
