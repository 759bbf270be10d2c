import { RequireOwnKitchen } from '../kitchen-admin/admin-gates.js';
import { AdminPage } from '../kitchen-admin/admin-page.js';
import { MenuDashboard } from './menu-dashboard.js';

export function MenuDashboardPage() {
  return (
    <AdminPage>
      {(user) => (
        <RequireOwnKitchen user={user}>{(kitchen) => <MenuDashboard kitchen={kitchen} />}</RequireOwnKitchen>
      )}
    </AdminPage>
  );
}
