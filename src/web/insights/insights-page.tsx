import { RequireOwnKitchen } from '../kitchen-admin/admin-gates.js';
import { AdminPage } from '../kitchen-admin/admin-page.js';
import { KitchenInsights } from './kitchen-insights.js';

/** /Insights: the signed-in cook's figures in charts (a cook without a kitchen is sent to register one). */
export function InsightsPage() {
  return (
    <AdminPage>
      {(user) => (
        <RequireOwnKitchen user={user}>
          {(kitchen) => <KitchenInsights kitchen={kitchen} />}
        </RequireOwnKitchen>
      )}
    </AdminPage>
  );
}
