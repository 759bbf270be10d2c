import { CustomerOnly } from '../auth/customer-only.js';
import { PageLayout } from '../layout/page-layout.js';
import { OrderStatus } from '../orders/order-status.js';

/** /CustomerOrderStatus: the signed-in customer's order, live. */
export function CustomerOrderStatusPage() {
  return (
    <PageLayout>
      <CustomerOnly>{() => <OrderStatus />}</CustomerOnly>
    </PageLayout>
  );
}
