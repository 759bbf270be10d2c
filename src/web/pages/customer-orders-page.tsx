import { Stack } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { YourAllergies } from '../allergies/your-allergies.js';
import { YourData } from '../account/your-data.js';
import { CustomerOnly } from '../auth/customer-only.js';
import { PageLayout } from '../layout/page-layout.js';
import { NotificationSettingsSection } from '../notifications/settings/notification-settings.js';
import { OrderHistory } from '../orders/order-history.js';
import { StoreCredit } from '../credit/store-credit.js';

// 'Your plans' loads with its own code, after the orders: most customers have no plan.
const YourPlans = lazy(async () => ({ default: (await import('../plans/your-plans.js')).YourPlans }));

/** /CustomerOrders: 'Your orders', 'Your plans' (if any), 'Notifications', 'Your allergies' and 'Your data', for the signed-in customer. */
export function CustomerOrdersPage() {
  return (
    <PageLayout>
      <CustomerOnly>
        {() => (
          <Stack gap="xl">
            <OrderHistory />
            <Suspense fallback={null}>
              <YourPlans />
            </Suspense>
            <StoreCredit />
            <NotificationSettingsSection audience="customer" />
            <YourAllergies />
            <YourData role="customer" />
          </Stack>
        )}
      </CustomerOnly>
    </PageLayout>
  );
}
