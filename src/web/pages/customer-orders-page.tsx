import { CustomerOnly } from '../auth/customer-only.js';
import { PageLayout } from '../layout/page-layout.js';
import { OrderHistory } from '../orders/order-history.js';

/** /CustomerOrders: 'Your orders', for the signed-in customer. */
export function CustomerOrdersPage() {
  return (
    <PageLayout>
      <CustomerOnly>{() => <OrderHistory />}</CustomerOnly>
    </PageLayout>
  );
}
