import { RequireOwnKitchen } from './admin-gates.js';
import { AdminPage } from './admin-page.js';
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
