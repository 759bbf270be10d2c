import { RequireOwnKitchen } from '../kitchen-admin/admin-gates.js';
import { AdminPage } from '../kitchen-admin/admin-page.js';
import { KitchenRules } from './kitchen-rules.js';

/** /KitchenRules: 'Rules for your kitchen' (a cook without a kitchen is sent to register one). */
export function KitchenRulesPage() {
  return (
    <AdminPage>
      {(user) => (
        <RequireOwnKitchen user={user}>
          {(kitchen) => <KitchenRules ownerUid={kitchen.uid} />}
        </RequireOwnKitchen>
      )}
    </AdminPage>
  );
}
