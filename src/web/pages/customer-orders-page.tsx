import { Stack } from '@mantine/core';
import { YourData } from '../account/your-data.js';
import { CustomerOnly } from '../auth/customer-only.js';
import { PageLayout } from '../layout/page-layout.js';
import { OrderHistory } from '../orders/order-history.js';

/** /CustomerOrders: 'Your orders' and 'Your data', for the signed-in customer. */
export function CustomerOrdersPage() {
  return (
    <PageLayout>
      <CustomerOnly>
        {() => (
          <Stack gap="xl">
            <OrderHistory />
            <YourData role="customer" />
          </Stack>
        )}
      </CustomerOnly>
    </PageLayout>
  );
}
