import { Stack } from '@mantine/core';
import { YourAllergies } from '../allergies/your-allergies.js';
import { YourData } from '../account/your-data.js';
import { CustomerOnly } from '../auth/customer-only.js';
import { PageLayout } from '../layout/page-layout.js';
import { NotificationSettingsSection } from '../notifications/settings/notification-settings.js';
import { OrderHistory } from '../orders/order-history.js';

/** /CustomerOrders: 'Your orders', 'Notifications', 'Your allergies' and 'Your data', for the signed-in customer. */
export function CustomerOrdersPage() {
  return (
    <PageLayout>
      <CustomerOnly>
        {() => (
          <Stack gap="xl">
            <OrderHistory />
            <NotificationSettingsSection audience="customer" />
            <YourAllergies />
            <YourData role="customer" />
          </Stack>
        )}
      </CustomerOnly>
    </PageLayout>
  );
}
